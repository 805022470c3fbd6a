package io.stork.localstore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The real Swift + s3api store on loopback that scripts/local-store.sh runs. Tests, the demo and the
 * benchmarks share one instance per run: {@link #shared()} reads the running store's {@code store.env}
 * and starts the store through the script if it is not running.
 */
public final class LocalStore {

    private static LocalStore shared;

    private final Map<String, String> env;
    private final Path repoRoot;

    private LocalStore(Path repoRoot, Map<String, String> env) {
        this.repoRoot = repoRoot;
        this.env = env;
    }

    public static synchronized LocalStore shared() {
        TestLane.requireIntegration("the local store");
        if (shared == null) {
            Path root = repoRoot();
            Path envFile = envFile(root);
            if (!Files.exists(envFile) || !healthy(readEnv(envFile))) {
                // The tests of TLS and of virtual-hosted requests need both options: ask for them.
                runScript(root, "start", "--tls", "--vhost");
            }
            shared = new LocalStore(root, readEnv(envFile));
        }
        return shared;
    }

    /** The project root: {@code stork.repo.root}, else the nearest parent holding scripts/local-store.sh. */
    public static Path repoRoot() {
        String configured = System.getProperty("stork.repo.root");
        if (configured != null && Files.exists(Paths.get(configured, "scripts", "local-store.sh"))) {
            return Paths.get(configured).toAbsolutePath();
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("scripts/local-store.sh"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find scripts/local-store.sh above " + Paths.get("").toAbsolutePath()
                + "; set -Dstork.repo.root");
    }

    static Path envFile(Path root) {
        String home = System.getenv("STORK_STORE_HOME");
        Path state = home != null ? Paths.get(home) : root.resolve(".stork/local-store");
        return state.resolve("store.env");
    }

    static Map<String, String> readEnv(Path file) {
        Map<String, String> values = new HashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (!line.startsWith("#") && eq > 0) {
                    values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return values;
    }

    private static boolean healthy(Map<String, String> env) {
        String port = env.get("STORK_STORE_PORT");
        String host = env.getOrDefault("STORK_STORE_HOST", "127.0.0.1");
        if (port == null) {
            return false;
        }
        try {
            HttpResponse<Void> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/healthcheck"))
                            .timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void runScript(Path root, String command, String... options) {
        int exit = script(root, command, options);
        if (exit != 0) {
            throw new IllegalStateException("scripts/local-store.sh " + command + " failed with exit code " + exit);
        }
    }

    /** Runs scripts/local-store.sh with {@code command} and its options; its exit status. */
    static int script(Path root, String command, String... options) {
        try {
            java.util.List<String> args = new java.util.ArrayList<>(
                    java.util.List.of("bash", root.resolve("scripts/local-store.sh").toString(), command));
            args.addAll(java.util.List.of(options));
            Process process = new ProcessBuilder(args).inheritIO().start();
            return process.waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the local store", e);
        }
    }

    private String get(String name) {
        String value = env.get(name);
        if (value == null) {
            throw new IllegalStateException(name + " missing from the local store's store.env");
        }
        return value;
    }

    /** The address the store listens on: loopback, or an address in a network namespace (slow-link mode). */
    public String host() {
        return env.getOrDefault("STORK_STORE_HOST", "127.0.0.1");
    }

    public int port() {
        return Integer.parseInt(get("STORK_STORE_PORT"));
    }

    public URI s3Endpoint() {
        return URI.create(get("STORK_S3_ENDPOINT"));
    }

    public String s3Region() {
        return get("STORK_S3_REGION");
    }

    public String s3AccessKey() {
        return get("STORK_S3_ACCESS_KEY");
    }

    public String s3SecretKey() {
        return get("STORK_S3_SECRET_KEY");
    }

    public URI swiftAuthUrl() {
        return URI.create(get("STORK_SWIFT_AUTH_URL"));
    }

    public String swiftUser() {
        return get("STORK_SWIFT_USER");
    }

    public String swiftKey() {
        return get("STORK_SWIFT_KEY");
    }

    /** A second tempauth user without admin rights: it cannot touch the first user's containers. */
    public String swiftReaderUser() {
        return get("STORK_SWIFT_READER_USER");
    }

    public String swiftReaderKey() {
        return get("STORK_SWIFT_READER_KEY");
    }

    public Path logsDirectory() {
        return Paths.get(get("STORK_STORE_LOGS"));
    }

    public AccessLog accessLog() {
        return new AccessLog(Paths.get(get("STORK_STORE_ACCESS_LOG")), URI.create("http://" + host() + ":" + port()),
                env.get("STORK_S3_STORAGE_DOMAIN"));
    }

    /**
     * The store's https endpoint (scripts/local-store.sh start --tls), or a failure saying how to get one:
     * tests of TLS never pass without it.
     */
    public LocalTls tls() {
        if (!env.containsKey("STORK_S3_TLS_ENDPOINT")) {
            throw new IllegalStateException("the local store runs without TLS: restart it with"
                    + " scripts/local-store.sh start --tls (scripts/test.sh does)");
        }
        return new LocalTls(URI.create(get("STORK_S3_TLS_ENDPOINT")), URI.create(get("STORK_SWIFT_TLS_AUTH_URL")),
                get("STORK_SWIFT_TLS_USER"), get("STORK_SWIFT_TLS_KEY"), Paths.get(get("STORK_TLS_TRUSTSTORE")),
                get("STORK_TLS_TRUSTSTORE_PASSWORD"), Paths.get(get("STORK_TLS_CA_PEM")),
                Paths.get(get("STORK_TLS_OTHER_TRUSTSTORE")));
    }

    /**
     * The endpoint for virtual-hosted-style S3 requests and the buckets whose host names resolve to the
     * store (scripts/local-store.sh start --vhost), or a failure saying how to get them.
     */
    public LocalVirtualHosts virtualHosts() {
        if (!env.containsKey("STORK_S3_VHOST_BUCKETS")) {
            throw new IllegalStateException("the local store has no virtual-hosted bucket names: restart it with"
                    + " scripts/local-store.sh start --vhost (scripts/test.sh does; it writes /etc/hosts, as root)");
        }
        return new LocalVirtualHosts(URI.create(get("STORK_S3_VHOST_ENDPOINT")), get("STORK_S3_STORAGE_DOMAIN"),
                java.util.List.of(get("STORK_S3_VHOST_BUCKETS").split(",")));
    }

    public Path repositoryRoot() {
        return repoRoot;
    }
}
