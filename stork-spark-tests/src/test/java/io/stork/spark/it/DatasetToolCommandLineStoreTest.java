package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.manifest.PartNames;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.PutBody;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dataset tool's command line as a process: every bad argument is refused with exit 2, a one-line
 * error and the usage, before the store sees a single call; the dataset's objects are counted at the store
 * before and after. A mistyped {@code --dryrun} once ran a real vacuum.
 */
class DatasetToolCommandLineStoreTest {

    private static final String BUCKET = "it-tool-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.withStork("stork-tool-command-line", BUCKET, "it-tool-unused").getOrCreate();
        SparkOnLocalStore.createBuckets(spark, BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    private record Run(int exit, List<String> lines) {
    }

    /** {@code java -cp <this class path> io.stork.commit.DatasetTool <bucket settings> args}. */
    private static Run tool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin"
                + File.separator + "java", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "io.stork.commit.DatasetTool"));
        command.addAll(bucketSettings());
        command.addAll(List.of(args));
        return run(new ProcessBuilder(command));
    }

    private static List<String> bucketSettings() {
        List<String> settings = new ArrayList<>();
        for (Map.Entry<String, String> e : spark.sparkContext().hadoopConfiguration()) {
            if (e.getKey().startsWith("fs.stork.bucket." + BUCKET + ".")) {
                settings.add("-D" + e.getKey() + "=" + e.getValue());
            }
        }
        return settings;
    }

    private static Run run(ProcessBuilder builder) throws Exception {
        Process process = builder.redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).isTrue();
        // (The test class path holds two SLF4J providers, which SLF4J reports on its first use; the tools jar one.)
        return new Run(process.exitValue(), output.lines().filter(l -> !l.startsWith("SLF4J")).toList());
    }

    private static List<String> objects(StorkFileSystem fs, String dataset) throws Exception {
        String prefix = new org.apache.hadoop.fs.Path(dataset).toUri().getPath().substring(1) + "/";
        List<String> names = new ArrayList<>();
        try (var it = fs.store().list(ListRequest.of(BUCKET, prefix))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                names.add(entry.name());
            }
        }
        return names;
    }

    /** A dataset at generation 2 with the two parts generation 1 had (retained) and one stray; the stray's key. */
    private static String datasetWithRetainedPartsAndAStray(StorkFileSystem fs, String name) throws Exception {
        String dataset = "stork://" + BUCKET + "/" + name;
        spark.range(0, 40, 1, 2).write().parquet(dataset);
        spark.range(0, 20, 1, 1).write().mode(SaveMode.Overwrite).parquet(dataset);
        String stray = name + "/" + PartNames.partFileName(9, UUID.randomUUID().toString(), 3, ".parquet");
        fs.store().put(ObjectKey.of(BUCKET, stray), PutBody.of("stray".getBytes(StandardCharsets.UTF_8)),
                io.stork.store.PutOptions.defaults());
        return stray;
    }

    @Test
    void everyBadArgumentIsRefusedWithExit2AndOneLineBeforeTheStoreIsTouched() throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, BUCKET);
        String dataset = "stork://" + BUCKET + "/t";
        String key = datasetWithRetainedPartsAndAStray(fs, "t");
        List<String> before = objects(fs, dataset);
        assertThat(before).contains(key).hasSizeGreaterThanOrEqualTo(5);

        Map<String, List<String>> cases = new java.util.LinkedHashMap<>();
        cases.put("stork-dataset: unknown option '--dryrun'", List.of("vacuum", "--retention", "0s", dataset, "--dryrun"));
        cases.put("stork-dataset: --retention 7: not a duration with a unit (90s, 60m, 24h, 7d)",
                List.of("vacuum", "--retention", "7", dataset));
        cases.put("stork-dataset: missing value for --retention (a duration such as 24h)",
                List.of("vacuum", dataset, "--retention"));
        cases.put("stork-dataset: 'two' is not a generation number", List.of("restore", dataset, "two"));
        cases.put("stork-dataset: 'x1' is not a generation number", List.of("changes", dataset, "1", "x1"));
        cases.put("stork-dataset: clean takes no --retention option", List.of("clean", "--retention", "7d", dataset));
        cases.put("stork-dataset: unexpected argument 'now' for vacuum", List.of("vacuum", dataset, "now"));
        cases.put("stork-dataset: --retention 1h is under the maintenance floor of 1d (fs.stork.maintenance.floor): "
                + "younger attempt parts may belong to jobs still running; to use a shorter period on purpose, set "
                + "-Dfs.stork.maintenance.retention.check=false", List.of("vacuum", "--retention", "1h", dataset));
        cases.put("stork-dataset: --older-than 0s is under the maintenance floor of 1d (fs.stork.maintenance.floor): "
                + "younger attempt parts may belong to jobs still running; to use a shorter period on purpose, set "
                + "-Dfs.stork.maintenance.retention.check=false", List.of("clean", "--older-than", "0s", dataset));
        cases.put("stork-dataset: fs.stork.maintenance.floor: '12' is not a duration with a unit (100ms, 10s, 5m, 24h, 7d)",
                List.of("-Dfs.stork.maintenance.floor=12", "vacuum", dataset));
        for (Map.Entry<String, List<String>> c : cases.entrySet()) {
            AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
            Run run = tool(c.getValue().toArray(new String[0]));
            assertThat(run.exit()).as(String.join(" ", c.getValue()) + ":\n" + String.join("\n", run.lines()))
                    .isEqualTo(2);
            assertThat(run.lines().get(0)).isEqualTo(c.getKey());
            assertThat(run.lines()).as("no stack trace").noneMatch(l -> l.contains("Exception") || l.startsWith("\tat "));
            if (!c.getKey().contains("maintenance.floor: '12'")) {
                assertThat(run.lines().get(1)).isEqualTo("usage:");
                assertThat(run.lines()).contains("  stork-dataset vacuum [--dry-run] [--retention 7d] [-Dkey=value ...] "
                        + "<dataset uri>", "  stork-dataset clean [--dry-run] [--older-than 24h] [-Dkey=value ...] "
                        + "<dataset uri>");
            }
            assertThat(window.counts().entries()).as("no call reached the store").isEmpty();
        }
        assertThat(objects(fs, dataset)).as("nothing deleted").isEqualTo(before);

        // The same command spelt right is a dry run: it names what it would delete and deletes nothing.
        Run dry = tool("-Dfs.stork.maintenance.retention.check=false", "vacuum", "--retention", "0s", "--dry-run",
                dataset);
        assertThat(dry.exit()).isZero();
        assertThat(dry.lines()).anyMatch(l -> l.startsWith("vacuum (dry run): would delete 3 objects"));
        assertThat(objects(fs, dataset)).isEqualTo(before);
    }

    @Test
    void aVacuumFencesThenDeletesShowingItsProgressAndSummaryAtTheCostTheDesignNoteGives() throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, BUCKET);
        String dataset = "stork://" + BUCKET + "/vacuumed";
        String stray = datasetWithRetainedPartsAndAStray(fs, "vacuumed");
        int before = objects(fs, dataset).size();

        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        Run run = tool("-Dfs.stork.tool.progress.interval=0s", "-Dfs.stork.maintenance.retention.check=false",
                "vacuum", "--retention", "0s", dataset);
        assertThat(run.exit()).as(String.join("\n", run.lines())).isZero();
        assertThat(run.lines()).contains("vacuum: listed 1 objects")
                .contains("vacuum: fenced 1 task attempts in generation 3 (they can no longer commit)")
                .anyMatch(l -> l.matches("vacuum: deleted 3 of 3 objects, [\\d,]+ of [\\d,]+ bytes"))
                .anyMatch(l -> l.matches("vacuum: deleted 3 objects \\(2 dropped parts, 1 stray attempt parts, 0 "
                        + "bookkeeping\\), freed [\\d,]+ bytes"));
        var calls = new java.util.EnumMap<>(window.counts().byType());
        assertThat(calls).as("inspect: GET + LIST; fence: GET + PUT; the read after it: GET; one bulk delete")
                .isEqualTo(Map.of(io.stork.store.CallType.GET, 3L, io.stork.store.CallType.LIST, 1L,
                        io.stork.store.CallType.PUT, 1L, io.stork.store.CallType.BULK_DELETE, 1L));
        assertThat(objects(fs, dataset)).hasSize(before - 3).doesNotContain(stray);
        assertThat(spark.read().parquet(dataset).count()).isEqualTo(20);
    }

    @Test
    void argumentsWithSpacesSurviveTheScript() throws Exception {
        String dataset = "stork://" + BUCKET + "/spaced";
        spark.range(0, 10, 1, 1).write().parquet(dataset);
        Path repo = LocalStore.repoRoot();
        List<String> command = new ArrayList<>(List.of("bash", repo.resolve("scripts/stork-dataset.sh").toString()));
        command.addAll(bucketSettings());
        // Were the words split, "words" would be an extra argument and the tool would refuse it.
        command.addAll(List.of("-Dfs.stork.test.note=two words", "inspect", dataset));
        Run run = run(new ProcessBuilder(command).directory(repo.toFile()));
        assertThat(run.exit()).as(String.join("\n", run.lines())).isZero();
        assertThat(run.lines()).anyMatch(l -> l.contains("manifest: generation 1 (create)"));
    }
}
