package io.stork.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A Spark application run as a user runs it: a {@code spark-submit} or {@code python3} process with the
 * runtime jar, the store's access log read around it. The application ({@code python/user_path.py}) marks
 * each step in the access log, so the store's calls are split by step and set beside the client's own count.
 */
final class SparkProcess {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One step of the application: what it reported, and the calls the store logged while it ran. */
    record Step(String name, JsonNode reported, StoreCallCounts atStore) {

        Map<String, Long> clientCalls() {
            Map<String, Long> calls = new TreeMap<>();
            reported.path("calls").fields().forEachRemaining(e -> calls.put(e.getKey(), e.getValue().asLong()));
            return calls;
        }

        Map<String, Long> storeCalls() {
            Map<String, Long> calls = new TreeMap<>();
            atStore.byType().forEach((type, n) -> calls.put(type.name(), n));
            return calls;
        }
    }

    /** A finished run: its steps in order, what it printed, and where its output is kept. */
    record Run(Map<String, Step> steps, List<String> stdout, Path stdoutFile, Path stderrFile,
               Map<String, List<AccessLogEntry>> byMarker) {

        /** The store's log lines after the marker {@code name} (e.g. "end": what the application did on stopping). */
        List<AccessLogEntry> after(String name) {
            return byMarker.getOrDefault(name, List.of());
        }

        Step step(String name) {
            Step step = steps.get(name);
            if (step == null) {
                throw new AssertionError("no step " + name + " in " + stdoutFile + "; steps: " + steps.keySet());
            }
            return step;
        }

        String printed(String prefix) {
            return stdout.stream().filter(l -> l.startsWith(prefix)).findFirst()
                    .map(l -> l.substring(prefix.length())).orElseThrow(
                            () -> new AssertionError("no line " + prefix + " in " + stdoutFile));
        }
    }

    static Path sparkHome() {
        io.stork.localstore.TestLane.requireIntegration("a Spark distribution's processes");
        String home = System.getenv("SPARK_HOME");
        if (home == null || !Files.isExecutable(Path.of(home, "bin", "spark-submit"))) {
            throw new IllegalStateException("SPARK_HOME must name a Spark " + "distribution (scripts/test.sh sets it "
                    + "from scripts/spark-home.sh); it is " + home);
        }
        return Path.of(home);
    }

    static Path runtimeJar() {
        io.stork.localstore.TestLane.requireIntegration("the packaged runtime jar");
        Path jar = Path.of(System.getProperty("stork.runtime.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no runtime jar at " + jar + ": build stork-spark-runtime first");
        }
        return jar;
    }

    static Path workDirectory(String name) throws IOException {
        Path dir = Path.of(System.getProperty("stork.test.work", "target/user-path")).resolve(name);
        if (Files.exists(dir)) {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return Files.createDirectories(dir);
    }

    /** The {@code --conf} pairs that point one stork:// bucket at the local store (new secret names). */
    static Map<String, String> bucketConf(String bucket, String api) {
        LocalStore local = LocalStore.shared();
        String prefix = "spark.hadoop.fs.stork.bucket." + bucket + ".";
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put(prefix + "api", api);
        conf.put(prefix + "endpoint", local.s3Endpoint().toString());
        conf.put(prefix + "access.key", local.s3AccessKey());
        conf.put(prefix + "access.secret", local.s3SecretKey());
        conf.put(prefix + "swift.auth.url", local.swiftAuthUrl().toString());
        conf.put(prefix + "swift.user", local.swiftUser());
        conf.put(prefix + "swift.password", local.swiftKey());
        return conf;
    }

    static List<String> confArgs(Map<String, String> conf) {
        List<String> args = new ArrayList<>();
        conf.forEach((k, v) -> {
            args.add("--conf");
            args.add(k + "=" + v);
        });
        return args;
    }

    /** Runs a command to completion (10 minutes at most) and splits the store's calls by the steps it marked. */
    static Run run(String name, List<String> command, Map<String, String> env, Path work) throws Exception {
        Path out = work.resolve(name + ".out");
        Path err = work.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(env);
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        Process process = builder.start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(name + ": still running after 10 minutes; output in " + out + ", " + err);
        }
        List<String> stdout = Files.readAllLines(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0 || !stdout.contains("DONE")) {
            List<String> errLines = Files.readAllLines(err, StandardCharsets.UTF_8);
            throw new AssertionError(name + ": exit " + process.exitValue() + "; last lines of " + err + ":\n"
                    + String.join("\n", errLines.subList(Math.max(0, errLines.size() - 40), errLines.size())));
        }
        Map<String, List<AccessLogEntry>> byStep = new LinkedHashMap<>();
        String current = "(before the first step)";
        for (AccessLogEntry entry : window.entriesInOrder()) {
            if (entry.path().startsWith("/stork-marker-")) {
                continue;
            }
            var marker = entry.stepMarker();
            if (marker.isPresent()) {
                current = marker.get();
                continue;
            }
            byStep.computeIfAbsent(current, k -> new ArrayList<>()).add(entry);
        }
        Map<String, Step> steps = new LinkedHashMap<>();
        for (String line : stdout) {
            if (line.startsWith("STEP ")) {
                JsonNode reported = JSON.readTree(line.substring(5));
                String step = reported.get("name").asText();
                String key = reported.path("bucket").isNull() ? step : step + "@" + reported.get("bucket").asText();
                steps.put(key, new Step(step, reported, new StoreCallCounts(byStep.getOrDefault(key, List.of()), 0)));
            }
        }
        return new Run(steps, stdout, out, err, byStep);
    }

    /** Runs a command line tool to completion (2 minutes at most) and returns its standard output. */
    static List<String> runTool(String name, List<String> command, Path work) throws Exception {
        Path out = work.resolve(name + ".out");
        Path err = work.resolve(name + ".err");
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError(name + " failed; output in " + out + ", errors:\n" + Files.readString(err));
        }
        return Files.readAllLines(out, StandardCharsets.UTF_8);
    }

    private SparkProcess() {
    }
}
