package io.stork.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Maintenance against a job still writing, as users run both: a Spark application (spark-submit with the
 * runtime jar) appends to a dataset with slow tasks while the dataset tool (the tools jar, java alone) runs
 * clean and vacuum against it, both APIs. With every setting the floor accepts, the running job's parts
 * are kept and every generation reads back whole; with the check turned off, the vacuum deletes parts
 * under the running job, and the job fails naming the part while the previous generation stays current.
 */
class MaintenanceUnderRunningJobStoreTest {

    private static final String SLOW_SECONDS = System.getProperty("stork.test.slowTaskSeconds", "6");

    private static String id() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    /** The Spark application, started; its output goes to files in {@code work}. */
    private static Process startApplication(String bucket, String api, String dataset, Path work, String name)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit").toString(),
                "--master", "local[2]", "--jars", SparkProcess.runtimeJar().toString(),
                "--conf", "spark.sql.extensions=io.stork.spark.StorkSparkExtensions", "--conf", "spark.ui.enabled=false"));
        command.addAll(SparkProcess.confArgs(SparkProcess.bucketConf(bucket, api)));
        command.addAll(List.of(Path.of("src/test/resources/python/slow_append.py").toAbsolutePath().toString(),
                dataset, SLOW_SECONDS));
        return new ProcessBuilder(command).directory(work.toFile()).redirectOutput(work.resolve(name + ".out").toFile())
                .redirectError(work.resolve(name + ".err").toFile()).start();
    }

    /** The dataset tool from the tools jar, as a process: exit code and standard output + error. */
    static ToolRun tool(String bucket, String api, Path work, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", System.getProperty("stork.tools.jar")));
        SparkProcess.bucketConf(bucket, api).forEach((k, v) -> command.add("-D" + k.substring("spark.hadoop.".length())
                + "=" + v));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        return new ToolRun(process.exitValue(), output);
    }

    record ToolRun(int exit, String output) {
        List<String> lines() {
            return output.lines().toList();
        }
    }

    private static int strays(ToolRun inspect) {
        for (String line : inspect.lines()) {
            if (line.contains("stray attempt parts (no manifest names them): ")) {
                return Integer.parseInt(line.replaceAll(".*names them\\): (\\d+),.*", "$1"));
            }
        }
        throw new AssertionError("no stray count in:\n" + inspect.output());
    }

    /** Waits until the append job has parts in the store (strays until it commits). */
    private static void awaitAppendParts(String bucket, String api, Path work, String dataset, Process app)
            throws Exception {
        Path out = work.resolve("app.out");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            assertThat(app.isAlive()).as("the application ended early:\n" + Files.readString(work.resolve("app.err")))
                    .isTrue();
            if (Files.readString(out).contains("CREATED") && strays(tool(bucket, api, work, "inspect", dataset)) > 0) {
                return;
            }
            Thread.sleep(300);
        }
        throw new AssertionError("the append job wrote no part in time");
    }

    private static List<String> finish(Process app, Path work) throws Exception {
        assertThat(app.waitFor(5, TimeUnit.MINUTES)).isTrue();
        List<String> out = Files.readAllLines(work.resolve("app.out"), StandardCharsets.UTF_8);
        assertThat(app.exitValue()).as(String.join("\n", Files.readAllLines(work.resolve("app.err")))).isZero();
        assertThat(out).contains("DONE");
        return out;
    }

    /** The application, started against a new bucket, once its append job has parts in the store. */
    private record RunningAppend(String bucket, String api, String dataset, Path work, Process app) {

        static RunningAppend start(String name, String api) throws Exception {
            String bucket = name + "-" + api + "-" + id();
            String dataset = "stork://" + bucket + "/events";
            Path work = SparkProcess.workDirectory(name + "-" + api);
            Process app = startApplication(bucket, api, dataset, work, "app");
            awaitAppendParts(bucket, api, work, dataset, app);
            return new RunningAppend(bucket, api, dataset, work, app);
        }

        ToolRun tool(String... args) throws Exception {
            return MaintenanceUnderRunningJobStoreTest.tool(bucket, api, work, args);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void everyAcceptedSettingKeepsARunningJobsPartsAndEveryGenerationReadsBackWhole(String api) throws Exception {
        RunningAppend running = RunningAppend.start("mnt", api);
        String dataset = running.dataset();
        Process app = running.app();
        Path work = running.work();

        List<String[]> settings = List.of(
                new String[] {"vacuum", dataset},
                new String[] {"vacuum", "--retention", "24h", dataset},
                new String[] {"clean", dataset},
                new String[] {"clean", "--older-than", "2d", dataset},
                // The shortest period the floor allows, with the floor lowered to a minute.
                new String[] {"-Dfs.stork.maintenance.floor=1m", "vacuum", "--retention", "1m", dataset},
                new String[] {"-Dfs.stork.maintenance.floor=1m", "clean", "--older-than", "1m", dataset});
        for (String[] args : settings) {
            ToolRun run = running.tool(args);
            assertThat(run.exit()).as(run.output()).isZero();
            assertThat(run.output()).as(String.join(" ", args)).contains("deleted 0 objects")
                    .containsPattern("kept \\d+ stray attempt parts younger than (7d|1d|2d|1m), which may belong to jobs "
                            + "still running");
        }
        assertThat(app.isAlive()).as("the job was still running while every command ran (else raise "
                + "stork.test.slowTaskSeconds)").isTrue();

        List<String> out = finish(app, work);
        assertThat(out).contains("APPEND ok",
                "GEN 1 create rows=400 distinct=400 min=0 max=399 sum=79800",
                "GEN 2 append rows=1200 distinct=1200 min=0 max=1199 sum=719400");
        ToolRun after = running.tool("inspect", dataset);
        assertThat(after.exit()).as("no part the manifest names is missing:\n" + after.output()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void withTheCheckOffAVacuumUnderARunningJobFailsTheJobAndTheDatasetStaysWhole(String api) throws Exception {
        RunningAppend running = RunningAppend.start("mnt-off", api);
        String dataset = running.dataset();
        Process app = running.app();
        Path work = running.work();

        ToolRun refused = running.tool("vacuum", "--retention", "0s", dataset);
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.lines().get(0)).isEqualTo("stork-dataset: --retention 0s is under the maintenance floor "
                + "of 1d (fs.stork.maintenance.floor): younger attempt parts may belong to jobs still running; to "
                + "use a shorter period on purpose, set -Dfs.stork.maintenance.retention.check=false");

        ToolRun vacuum = running.tool("-Dfs.stork.maintenance.retention.check=false", "vacuum",
                "--retention", "0s", dataset);
        assertThat(vacuum.exit()).as(vacuum.output()).isZero();
        assertThat(vacuum.output()).containsPattern("vacuum: fenced \\d+ task attempts in generation 2")
                .containsPattern("vacuum: deleted [1-9]\\d* objects \\(0 dropped parts, [1-9]\\d* stray attempt parts");
        assertThat(app.isAlive()).as("the job was still running (else raise stork.test.slowTaskSeconds)").isTrue();

        List<String> out = finish(app, work);
        assertThat(out).anyMatch(l -> l.startsWith("APPEND failed: ") && l.contains("cannot commit " + dataset)
                && l.contains("was deleted by maintenance (vacuum or clean)")
                && l.contains("the dataset stays at generation 2"));
        assertThat(out).contains("GEN 1 create rows=400 distinct=400 min=0 max=399 sum=79800",
                "GEN 2 maintenance rows=400 distinct=400 min=0 max=399 sum=79800").noneMatch(l -> l.startsWith("GEN 3"));
        ToolRun after = running.tool("inspect", dataset);
        assertThat(after.exit()).as("no part the manifest names is missing:\n" + after.output()).isZero();
        assertThat(after.output()).contains("manifest: generation 2 (maintenance)");
    }
}
