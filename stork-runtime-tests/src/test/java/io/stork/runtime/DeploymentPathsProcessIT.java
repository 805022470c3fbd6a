package io.stork.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalKeystone;
import io.stork.localstore.LocalStore;
import io.stork.localstore.LocalTls;
import io.stork.localstore.StoreCallCounts;
import java.io.File;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.crypto.spec.SecretKeySpec;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The real-deployment paths of issue 25 through {@code spark-submit --jars} with the runtime jar (the shaded
 * jar, its AWS SDK relocated), each a small pyspark application ({@code python/deployment_paths.py}) that
 * creates a bucket, writes a DataFrame and reads it back: S3 over the store's TLS endpoint with the trust store
 * per bucket and its password in a Hadoop credential provider; S3 with credentials from the container-credentials
 * protocol and from a user's provider class compiled against the plain SDK; Swift through Keystone v3 (password
 * and application credential); and a trust store of the wrong CA. Calls counted at the store's access logs and
 * by the client, and the two compared.
 */
class DeploymentPathsProcessIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROVIDER_CLASS = "com.example.creds.UserKeysProvider";

    private static String id() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private static Path script() {
        return Path.of("src/test/resources/python/deployment_paths.py").toAbsolutePath();
    }

    private static List<String> submit(String jars) {
        return new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit").toString(),
                "--master", "local[2]", "--jars", jars));
    }

    private static Map<String, String> common() {
        Map<String, String> conf = new LinkedHashMap<>();
        // As users run it: the extension sets fs.stork.impl (Hadoop's service loader ran before --jars joined).
        conf.put("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions");
        // No query history: its write when the application ends would fall outside the counted steps.
        conf.put("spark.stork.layout.history.enabled", "false");
        conf.put("spark.ui.enabled", "false");
        conf.put("spark.stork.test.store.endpoint", LocalStore.shared().s3Endpoint().toString());
        return conf;
    }

    @Test
    void s3OverTlsFromContainerCredentialsAndFromAUserProviderClassThroughTheShadedJar() throws Exception {
        LocalStore local = LocalStore.shared();
        LocalTls tls = local.tls();
        Path work = SparkProcess.workDirectory("deployment-s3");
        String run = "dp-" + id();
        String tlsBucket = "dp-tls-" + id();
        String containerBucket = "dp-ecs-" + id();
        String providerBucket = "dp-prov-" + id();
        Map<String, String> conf = common();

        // 1. TLS: the https endpoint (stunnel in front of the same proxy), the trust store per bucket, its
        //    password in a Hadoop credential provider (a jceks file, written as `hadoop credential create` does).
        Path jceks = work.resolve("creds.jceks");
        // Under the bucket's own name: the global name would give every bucket a password without a trust store.
        writeJceks(jceks, "fs.stork.bucket." + tlsBucket + ".ssl.truststore.password", tls.trustStorePassword());
        String b = "spark.hadoop.fs.stork.bucket." + tlsBucket + ".";
        conf.put(b + "api", "s3");
        conf.put(b + "endpoint", tls.s3Endpoint().toString());
        conf.put(b + "access.key", local.s3AccessKey());
        conf.put(b + "access.secret", local.s3SecretKey());
        conf.put(b + "ssl.truststore.path", tls.trustStore().toString());
        conf.put("spark.hadoop.hadoop.security.credential.provider.path", "jceks://file" + jceks);

        // 3a. No keys: the SDK's default chain, answered by the container-credentials endpoint the process
        //     environment names (local mode: the executors run in the driver's JVM, with its environment).
        b = "spark.hadoop.fs.stork.bucket." + containerBucket + ".";
        conf.put(b + "api", "s3");
        conf.put(b + "endpoint", local.s3Endpoint().toString());

        // 3b. A user's provider class compiled against the SDK's own names, in a jar of its own.
        Path marker = work.resolve("provider-calls.txt");
        Path providerJar = providerJar(work);
        b = "spark.hadoop.fs.stork.bucket." + providerBucket + ".";
        conf.put(b + "api", "s3");
        conf.put(b + "endpoint", local.s3Endpoint().toString());
        conf.put(b + "s3.credentials.provider", PROVIDER_CLASS);

        List<String> jars = new ArrayList<>(List.of(SparkProcess.runtimeJar().toString(), providerJar.toString()));
        jars.addAll(sdkJars()); // the SDK the provider was compiled against, as the docs ask users to ship it
        List<String> command = submit(String.join(",", jars));
        command.addAll(SparkProcess.confArgs(conf));
        command.addAll(List.of(script().toString(), run, tlsBucket, containerBucket, providerBucket));

        Map<String, String> env = new LinkedHashMap<>();
        env.put("STORK_TEST_PROVIDER_MARKER", marker.toString());
        env.put("STORK_TEST_PROVIDER_KEY", local.s3AccessKey());
        env.put("STORK_TEST_PROVIDER_SECRET", local.s3SecretKey());
        SparkProcess.Run result;
        int containerRequests;
        try (ContainerCredentials endpoint = new ContainerCredentials(local.s3AccessKey(), local.s3SecretKey())) {
            env.put("AWS_CONTAINER_CREDENTIALS_FULL_URI", endpoint.uri().toString());
            result = SparkProcess.run("deployment-s3", command, env, work);
            containerRequests = endpoint.requests.get();
        }

        for (String bucket : List.of(tlsBucket, containerBucket, providerBucket)) {
            assertRoundTrip(result, bucket);
        }
        int tlsPort = tls.s3Endpoint().getPort();
        for (String step : List.of("create-bucket", "write", "read")) {
            for (AccessLogEntry e : result.step(step + "@" + tlsBucket).atStore().entries()) {
                assertThat(e.headers()).as("through the TLS port: " + e.method() + " " + e.path())
                        .contains("Host: localhost:" + tlsPort);
            }
        }
        // The SDK caches what the container endpoint answered (valid for hours): asked once for the application.
        assertThat(containerRequests).as("container credentials asked for").isEqualTo(1);
        // The user's class, compiled against the SDK's own names, called through the relocated SDK in the
        // runtime jar: once per request, as the SDK's chain asks a provider (Stork adds no caching of its own).
        List<String> providerCalls = Files.readAllLines(marker);
        long providerBucketCalls = 0;
        for (String step : List.of("create-bucket", "write", "read")) {
            providerBucketCalls += result.step(step + "@" + providerBucket).atStore().total();
        }
        assertThat(providerCalls).as("the user's provider was called, as the plain SDK's provider")
                .hasSize((int) providerBucketCalls)
                .allMatch(l -> l.equals(PROVIDER_CLASS + " implements software.amazon.awssdk.auth.credentials"
                        + ".AwsCredentialsProvider"));
        System.out.println("[deployment-s3] container credential requests: " + containerRequests
                + "; provider calls: " + providerCalls.size() + "; calls: " + summary(result,
                List.of(tlsBucket, containerBucket, providerBucket)));
    }

    @Test
    void swiftThroughKeystoneV3OneTokenPerBucketInTheJvm() throws Exception {
        LocalKeystone keystone = LocalKeystone.shared();
        assumeTrue(keystone.available(), keystone.unavailableReason());
        Path work = SparkProcess.workDirectory("deployment-keystone");
        String run = "dp-" + id();
        String passwordBucket = "dp-ks-pw-" + id();
        String appCredBucket = "dp-ks-ac-" + id();
        Map<String, String> conf = common();
        String b = "spark.hadoop.fs.stork.bucket." + passwordBucket + ".";
        conf.put(b + "api", "swift");
        conf.put(b + "swift.auth.version", "3");
        conf.put(b + "swift.auth.url", keystone.url().toString());
        conf.put(b + "swift.user", keystone.user());
        conf.put(b + "swift.password", keystone.password());
        conf.put(b + "swift.project", keystone.project());
        conf.put(b + "swift.region", keystone.region());
        b = "spark.hadoop.fs.stork.bucket." + appCredBucket + ".";
        conf.put(b + "api", "swift");
        conf.put(b + "swift.auth.version", "3");
        conf.put(b + "swift.auth.url", keystone.url().toString());
        conf.put(b + "swift.application.credential.id", keystone.applicationCredentialId());
        conf.put(b + "swift.application.credential.secret", keystone.applicationCredentialSecret());
        List<String> command = submit(SparkProcess.runtimeJar().toString());
        command.addAll(SparkProcess.confArgs(conf));
        command.addAll(List.of(script().toString(), run, passwordBucket, appCredBucket));

        long tokensBefore = keystone.tokenRequests();
        var proxy = keystone.accessLog().openWindow();
        SparkProcess.Run result = SparkProcess.run("deployment-keystone", command, Map.of(), work);
        long tokens = keystone.tokenRequests() - tokensBefore;
        List<AccessLogEntry> atProxy = proxy.entriesInOrder();

        Map<String, Map<String, Long>> measured = new TreeMap<>();
        for (String bucket : List.of(passwordBucket, appCredBucket)) {
            assertThat(result.step("read@" + bucket).reported().get("rows").asLong()).isEqualTo(100);
            assertThat(result.step("read@" + bucket).reported().get("sum").asLong()).isEqualTo(4950);
            Map<String, Long> client = total(result, bucket);
            assertThat(client.get("AUTH")).as(bucket + ": one token for the application (one JVM)").isEqualTo(1L);
            StoreCallCounts swift = new StoreCallCounts(atProxy.stream()
                    .filter(e -> e.path().contains("/" + bucket + "/") || e.path().endsWith("/" + bucket)).toList(), 0);
            Map<String, Long> atStore = new TreeMap<>();
            swift.byType().forEach((type, n) -> atStore.put(type.name(), n));
            Map<String, Long> swiftCalls = new TreeMap<>(client);
            swiftCalls.remove("AUTH");
            assertThat(atStore).as(bucket + ": the Keystone Swift proxy's log vs the client's count").isEqualTo(swiftCalls);
            assertThat(atStore.get("PUT")).as(bucket + ": data written").isPositive();
            measured.put(bucket, client);
        }
        assertThat(tokens).as("token requests at Keystone: one per bucket in the one JVM").isEqualTo(2);
        for (Path place : List.of(result.stdoutFile(), result.stderrFile())) {
            assertThat(Files.readString(place, StandardCharsets.ISO_8859_1)).as(place.toString())
                    .doesNotContain(keystone.password()).doesNotContain(keystone.applicationCredentialSecret());
        }
        System.out.println("[deployment-keystone] token requests at Keystone: " + tokens + "; client calls: " + measured);
    }

    @Test
    void aTrustStoreOfAnotherCaFailsTheApplicationWithOneLineAndNoSecret() throws Exception {
        LocalStore local = LocalStore.shared();
        LocalTls tls = local.tls();
        Path work = SparkProcess.workDirectory("deployment-wrong-ca");
        String bucket = "dp-wrongca-" + id();
        String s3Secret = "S3-secret-" + UUID.randomUUID();
        String trustSecret = "Trust-secret-" + UUID.randomUUID();
        Map<String, String> conf = common();
        conf.put("spark.stork.test.create", "false");
        String b = "spark.hadoop.fs.stork.bucket." + bucket + ".";
        conf.put(b + "api", "s3");
        conf.put(b + "endpoint", tls.s3Endpoint().toString());
        conf.put(b + "access.key", local.s3AccessKey());
        conf.put(b + "access.secret", local.s3SecretKey());
        conf.put(b + "ssl.truststore.path", tls.otherTrustStore().toString());
        conf.put(b + "ssl.truststore.password", tls.trustStorePassword());
        // Secrets nobody uses, under the global names: none may appear in what the user sees.
        conf.put("spark.hadoop.fs.stork.access.secret", s3Secret);
        conf.put("spark.hadoop.fs.stork.ssl.truststore.password", trustSecret);
        List<String> command = submit(SparkProcess.runtimeJar().toString());
        command.addAll(SparkProcess.confArgs(conf));
        command.addAll(List.of(script().toString(), "dp-" + id(), bucket));

        Path out = work.resolve("wrong-ca.out");
        Path err = work.resolve("wrong-ca.err");
        var window = local.accessLog().openWindow();
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("finished").isTrue();
        assertThat(process.exitValue()).as("the application failed").isNotZero();
        String stdout = Files.readString(out);
        String stderr = Files.readString(err);
        assertThat(stdout).doesNotContain("DONE");
        // pyspark's driver passes the Python process's error stream to its standard output: the user's terminal
        // shows both, so both are searched.
        String expected = "TLS handshake with " + tls.s3Endpoint() + " failed: the server's certificate is not trusted"
                + " (set fs.stork.ssl.truststore.path to a trust store holding its CA)";
        List<String> lines = new ArrayList<>(List.of(stdout.split("\n")));
        lines.addAll(List.of(stderr.split("\n")));
        int at = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(expected)) {
                at = i;
                break;
            }
        }
        assertThat(at).as("the one-line TLS error in the output:\n" + tail(lines)).isNotNegative();
        String first = lines.get(at);
        System.out.println("[deployment-wrong-ca] the error as the user sees it: " + first);
        // The exception at the top of the Java part is Stork's one line (the call, the bucket, the endpoint, what
        // to set), not the JDK's handshake exception or the SDK's wrapper; the next line is already a frame.
        assertThat(first).startsWith(": io.stork.store.StoreUnreachableException: ")
                .contains("s3://" + bucket + " on S3 API at " + tls.s3Endpoint() + ": " + expected);
        assertThat(at + 1 < lines.size() ? lines.get(at + 1) : "").as("the line after the message")
                .matches("\\s*at .*");
        String all = stdout + stderr;
        assertThat(all).as("no chain of JDK or SDK exceptions").doesNotContain("Caused by:")
                .doesNotContain("SSLHandshakeException").doesNotContain("SdkClientException").doesNotContain("PKIX");
        List<String> fromClient = window.entriesInOrder().stream().filter(e -> e.path().contains(bucket) && e.stepMarker().isEmpty())
                .map(e -> e.method() + " " + e.path()).toList();
        assertThat(fromClient).as("no call reached the store").isEmpty();
        for (String text : List.of(stdout, stderr)) {
            assertThat(text).doesNotContain(s3Secret).doesNotContain(trustSecret)
                    .doesNotContain("=" + tls.trustStorePassword());
        }
    }

    /** Every step of one bucket: rows read back, the store's calls per step equal to the client's. */
    private static void assertRoundTrip(SparkProcess.Run result, String bucket) {
        for (String step : List.of("create-bucket", "write", "read")) {
            SparkProcess.Step s = result.step(step + "@" + bucket);
            assertThat(s.storeCalls()).as(bucket + " " + step + ": calls at the store vs the client's count")
                    .isEqualTo(s.clientCalls());
        }
        assertThat(result.step("create-bucket@" + bucket).storeCalls()).isEqualTo(Map.of("BUCKET_CREATE", 1L));
        assertThat(result.step("write@" + bucket).storeCalls().get("PUT")).as(bucket + ": the parts and the manifest")
                .isGreaterThanOrEqualTo(3L);
        assertThat(result.step("read@" + bucket).reported().get("rows").asLong()).isEqualTo(100);
        assertThat(result.step("read@" + bucket).reported().get("sum").asLong()).isEqualTo(4950);
    }

    private static Map<String, Long> total(SparkProcess.Run result, String bucket) throws Exception {
        for (String line : result.stdout()) {
            if (line.startsWith("TOTAL ")) {
                JsonNode node = JSON.readTree(line.substring(6));
                if (node.get("bucket").asText().equals(bucket)) {
                    Map<String, Long> calls = new TreeMap<>();
                    node.get("calls").fields().forEachRemaining(e -> calls.put(e.getKey(), e.getValue().asLong()));
                    return calls;
                }
            }
        }
        throw new AssertionError("no TOTAL for " + bucket + " in " + result.stdoutFile());
    }

    private static String summary(SparkProcess.Run result, List<String> buckets) {
        StringBuilder s = new StringBuilder();
        for (String bucket : buckets) {
            s.append(bucket).append(':');
            for (String step : List.of("create-bucket", "write", "read")) {
                s.append(' ').append(step).append('=').append(result.step(step + "@" + bucket).storeCalls());
            }
            s.append("; ");
        }
        return s.toString();
    }

    private static String tail(List<String> lines) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** A Hadoop credential provider file, as {@code hadoop credential create} writes it (JCEKS, password "none"). */
    private static void writeJceks(Path file, String alias, String secret) throws Exception {
        KeyStore store = KeyStore.getInstance("JCEKS");
        store.load(null, "none".toCharArray());
        store.setKeyEntry(alias, new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "AES"),
                "none".toCharArray(), null);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, "none".toCharArray());
        }
    }

    /** The AWS SDK's jars on this test's class path (the unrelocated SDK a user's provider is compiled against). */
    private static List<String> sdkJars() {
        List<String> jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> p.contains(File.separator + "software" + File.separator + "amazon" + File.separator)
                        || p.contains(File.separator + "reactivestreams" + File.separator))
                .toList();
        assertThat(jars).as("SDK jars").anyMatch(j -> j.contains(File.separator + "auth" + File.separator));
        return jars;
    }

    /**
     * A user's credentials provider: compiled here against the SDK's own interface (not the relocated one in
     * the runtime jar), packed in a jar of its own. Each call appends a line to the marker file naming the
     * interface it implements, and answers the keys the process environment gives it.
     */
    private static Path providerJar(Path work) throws Exception {
        Path src = Files.createDirectories(work.resolve("provider-src/com/example/creds"));
        Files.writeString(src.resolve("UserKeysProvider.java"), """
                package com.example.creds;

                import java.nio.file.Files;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
                import software.amazon.awssdk.auth.credentials.AwsCredentials;
                import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

                public class UserKeysProvider implements AwsCredentialsProvider {
                    @Override
                    public AwsCredentials resolveCredentials() {
                        try {
                            Files.writeString(Path.of(System.getenv("STORK_TEST_PROVIDER_MARKER")),
                                    getClass().getName() + " implements " + AwsCredentialsProvider.class.getName() + "\\n",
                                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        return AwsBasicCredentials.create(System.getenv("STORK_TEST_PROVIDER_KEY"),
                                System.getenv("STORK_TEST_PROVIDER_SECRET"));
                    }
                }
                """);
        Path classes = Files.createDirectories(work.resolve("provider-classes"));
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                "-cp", String.join(File.pathSeparator, sdkJars()), "--release", "17",
                src.resolve("UserKeysProvider.java").toString());
        assertThat(status).as("the provider compiles against the plain SDK").isZero();
        Path jar = work.resolve("user-provider.jar");
        String entry = "com/example/creds/UserKeysProvider.class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(entry));
            out.write(Files.readAllBytes(classes.resolve(entry)));
            out.closeEntry();
        }
        return jar;
    }

    /** The container-credentials protocol (ECS task roles, EKS Pod Identity) on loopback, counting its requests. */
    private static final class ContainerCredentials implements AutoCloseable {
        final AtomicInteger requests = new AtomicInteger();
        private final HttpServer server;

        ContainerCredentials(String accessKey, String secretKey) throws Exception {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                try (exchange) {
                    boolean ours = exchange.getRequestMethod().equals("GET")
                            && exchange.getRequestURI().getPath().equals("/container/credentials");
                    if (!ours) {
                        exchange.sendResponseHeaders(404, -1);
                        return;
                    }
                    requests.incrementAndGet();
                    String expiration = Instant.now().plus(6, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
                    byte[] body = ("{\"AccessKeyId\":\"" + accessKey + "\",\"SecretAccessKey\":\"" + secretKey
                            + "\",\"Token\":\"container-session-token\",\"Expiration\":\"" + expiration + "\"}")
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                }
            });
            server.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/container/credentials");
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
