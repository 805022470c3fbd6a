package io.stork.localstore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The second real store of the tests: an S3 gateway that honours conditional writes
 * (scripts/conditional-s3-store.sh, versitygw over a directory), started on first use like
 * {@link LocalStore}. Its access log counts calls by S3 operation.
 */
public final class ConditionalS3Store {

    private static ConditionalS3Store shared;

    private final Map<String, String> env;

    private ConditionalS3Store(Map<String, String> env) {
        this.env = env;
    }

    public static synchronized ConditionalS3Store shared() {
        TestLane.requireIntegration("the conditional S3 gateway");
        if (shared == null) {
            Path root = LocalStore.repoRoot();
            Path script = root.resolve("scripts/conditional-s3-store.sh");
            run(script, "start");
            shared = new ConditionalS3Store(read(root.resolve(".stork/conditional-s3/store.env")));
        }
        return shared;
    }

    public URI endpoint() {
        return URI.create(env.get("STORK_COND_S3_ENDPOINT"));
    }

    public String region() {
        return env.get("STORK_COND_S3_REGION");
    }

    public String accessKey() {
        return env.get("STORK_COND_S3_ACCESS_KEY");
    }

    public String secretKey() {
        return env.get("STORK_COND_S3_SECRET_KEY");
    }

    /** Lines of the access log so far: a mark to count from. */
    public int accessLogMark() {
        return accessLog().size();
    }

    /**
     * Calls since {@code mark}, by S3 operation and status ({@code PutObject 412}), from the gateway's own
     * access log (the fields after the time: remote address, requester, request id, operation, key, URI, status).
     */
    public Map<String, Integer> callsSince(int mark) {
        List<String> lines = accessLog();
        Map<String, Integer> calls = new TreeMap<>();
        for (String line : lines.subList(Math.min(mark, lines.size()), lines.size())) {
            int time = line.indexOf("] ");
            if (time < 0) {
                continue;
            }
            String[] f = line.substring(time + 2).split(" ");
            if (f.length > 6 && f[3].startsWith("s3_")) {
                calls.merge(f[3].substring(3) + " " + f[6], 1, Integer::sum);
            }
        }
        return calls;
    }

    private List<String> accessLog() {
        try {
            return Files.readAllLines(Path.of(env.get("STORK_COND_S3_ACCESS_LOG")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> read(Path file) {
        Map<String, String> values = new HashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return values;
    }

    private static void run(Path script, String command) {
        try {
            int exit = new ProcessBuilder("bash", script.toString(), command).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException(script + " " + command + " failed with exit code " + exit);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the conditional-write store", e);
        }
    }
}
