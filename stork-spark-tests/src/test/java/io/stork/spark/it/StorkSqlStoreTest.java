package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.commit.DatasetToolAccess;
import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.spark.dataset.StorkDataset;
import io.stork.store.CallType;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stork's SQL commands and metadata tables against the real local store, through both APIs (S3 and Swift):
 * each command's rows compared with what the dataset tool prints for the same dataset, the REST calls of
 * each counted at the store's access log. A dataset of three generations (create 2 parts, append 1,
 * overwrite 1), then RESTORE and VACUUM.
 */
class StorkSqlStoreTest {

    private static final String S3 = "it-sql-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT = "it-sql-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.withStork("stork-sql-store", S3, SWIFT).getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3, SWIFT);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    /** The dataset tool's output for a command, run in this JVM with the bucket's settings. */
    private static List<String> tool(String bucket, String... args) throws Exception {
        List<String> line = new ArrayList<>();
        for (Map.Entry<String, String> e : spark.sparkContext().hadoopConfiguration()) {
            if (e.getKey().startsWith("fs.stork.bucket." + bucket + ".")) {
                line.add("-D" + e.getKey() + "=" + e.getValue());
            }
        }
        line.addAll(List.of(args));
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertThat(DatasetToolAccess.run(line.toArray(new String[0]))).isZero();
        } finally {
            System.setOut(before);
        }
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static Manifest manifest(String dataset) throws Exception {
        Path root = new Path(dataset);
        try (InputStream in = root.getFileSystem(spark.sparkContext().hadoopConfiguration())
                .open(new Path(root, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    private static List<Row> sql(String statement) {
        return spark.sql(statement).collectAsList();
    }

    private static Map<CallType, Long> calls(String bucket, SparkOnLocalStore.Action action) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
        return SparkOnLocalStore.countedAtStore(fs, action);
    }

    /**
     * The calls at the store's access log alone: vacuum lists and deletes through a file system instance of
     * its own (raw objects, as the tool), which the bucket's cached client does not count.
     */
    private static Map<CallType, Long> atStore(SparkOnLocalStore.Action action) throws Exception {
        io.stork.localstore.AccessLog.Window window = io.stork.localstore.LocalStore.shared().accessLog().openWindow();
        action.run();
        return window.counts().byType();
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void everyCommandAnswersAsTheDatasetToolAndTheManifest(String api) throws Exception {
        String bucket = api.equals("s3") ? S3 : SWIFT;
        String path = "stork://" + bucket + "/events";
        String t = "stork.`" + path + "`";
        spark.range(0, 10).selectExpr("id", "id % 3 AS k").repartition(2).write().parquet(path);
        spark.range(10, 15).selectExpr("id", "id % 3 AS k").coalesce(1).write().mode(SaveMode.Append).parquet(path);
        spark.range(100, 103).selectExpr("id", "id % 3 AS k").coalesce(1).write().mode(SaveMode.Overwrite)
                .parquet(path);

        // DESCRIBE HISTORY: the tool's history lines, newest first; the manifest's one GET.
        List<Row>[] history = new List[1];
        Map<CallType, Long> historyCalls = calls(bucket, () -> history[0] = sql("DESCRIBE HISTORY " + t));
        assertThat(historyCalls).as("DESCRIBE HISTORY").isEqualTo(Map.of(CallType.GET, 1L));
        List<String> toolHistory = tool(bucket, "history", path).stream()
                .filter(l -> l.matches("\\s+\\d+\\s+.*")).toList();
        assertThat(toolHistory).hasSize(3);
        for (int i = 0; i < 3; i++) {
            String[] cells = toolHistory.get(2 - i).trim().split("\\s+");
            Row r = history[0].get(i);
            assertThat(List.of(r.getLong(0), r.getString(2), r.getString(3), r.getInt(4), r.getLong(5), r.getInt(7),
                    r.getInt(8))).as("generation %s", cells[0]).isEqualTo(List.of(Long.parseLong(cells[0]), cells[1],
                    cells[2], Integer.parseInt(cells[4]), Long.parseLong(cells[5].replace(",", "")),
                    Integer.parseInt(cells[7]), Integer.parseInt(cells[8])));
        }

        // DESCRIBE DETAIL: the tool's inspect line "parts: n, b bytes"; the manifest's GET and the layout model's.
        Manifest m = manifest(path);
        Row detail = sql("DESCRIBE DETAIL " + t).get(0);
        String inspectParts = tool(bucket, "inspect", path).stream().filter(l -> l.trim().startsWith("parts:"))
                .findFirst().orElseThrow().trim();
        assertThat(inspectParts).startsWith(String.format("parts: %d, %,d bytes", detail.getInt(5), detail.getLong(6)));
        assertThat(detail.getLong(2)).isEqualTo(m.generation());
        assertThat(detail.getString(0)).isEqualTo("parquet");
        assertThat(detail.getString(8)).isEqualTo("id BIGINT,k BIGINT");

        // stork_files: the manifest's parts with their ETags; stork_changes: the tool's changes lines.
        List<Row> files = sql("SELECT path, size, etag FROM stork_files('" + path + "')");
        assertThat(files).extracting(r -> r.getString(0) + " " + r.getLong(1) + " " + r.getString(2))
                .containsExactlyElementsOf(m.parts().stream().map(p -> p.path() + " " + p.length() + " " + p.etag())
                        .toList());
        assertThat(files).allSatisfy(r -> assertThat(r.getString(2)).isNotBlank());
        List<String> toolChanges = tool(bucket, "changes", path, "1").stream().filter(l -> l.startsWith("  ")).toList();
        List<Row> changes = sql("SELECT * FROM stork_changes('" + path + "', 1)");
        assertThat(changes).extracting(r -> String.format("  %s generation %d  %s  %d bytes",
                        r.getString(1).equals("added") ? "+" : "-", r.getLong(0), r.getString(2), r.getLong(3)))
                .containsExactlyElementsOf(toolChanges);

        // VERSION AS OF: generation 1's ten rows.
        assertThat(sql("SELECT count(*) FROM parquet.`" + path + "` VERSION AS OF 1").get(0).getLong(0)).isEqualTo(10);

        // RESTORE: a new generation naming generation 1's parts, nothing copied.
        List<Row>[] restored = new List[1];
        Map<CallType, Long> restoreCalls = calls(bucket, () -> restored[0] = sql("RESTORE TABLE " + t
                + " TO VERSION AS OF 1"));
        System.out.println("RESTORE on " + api + ": " + restoreCalls);
        assertThat(restoreCalls.getOrDefault(CallType.COPY, 0L)).as("nothing copied").isZero();
        assertThat(restoreCalls.get(CallType.GET)).isGreaterThanOrEqualTo(1L);
        assertThat(restoreCalls.get(CallType.PUT)).as("the manifest, and the claim where the store arbitrates")
                .isBetween(1L, 3L);
        Manifest afterRestore = manifest(path);
        assertThat(afterRestore.generation()).isEqualTo(4);
        assertThat(afterRestore.parts()).extracting(ManifestPart::path).containsExactlyInAnyOrderElementsOf(
                m.partsAt(1).stream().map(ManifestPart::path).toList());
        assertThat(restored[0].get(0).getInt(2)).isEqualTo(2);
        assertThat(sql("SELECT count(*) FROM " + t).get(0).getLong(0)).isEqualTo(10);

        // VACUUM: the floor first; then, below it on purpose, the dry run lists what the tool's dry run lists,
        // and the vacuum deletes exactly those, counted at the store.
        spark.conf().set("fs.stork.maintenance.retention.check", "false");
        try {
            List<Row> dry = sql("VACUUM " + t + " RETAIN 0 HOURS DRY RUN");
            List<String> toolDry = tool(bucket, "-Dfs.stork.maintenance.retention.check=false", "vacuum", "--dry-run",
                    "--retention", "0s", path).stream().filter(l -> l.startsWith("  stork://"))
                    .map(l -> l.trim().split("\\s+")[0]).toList();
            assertThat(dry).extracting(r -> r.getString(0)).containsExactlyInAnyOrderElementsOf(toolDry);
            // generation 4 names generation 1's two parts: the append's and the overwrite's parts were dropped
            assertThat(dry).filteredOn(r -> r.getString(2).equals("dropped-part")).hasSize(2);
            List<Row>[] done = new List[1];
            Map<CallType, Long> vacuumCalls = atStore(() -> done[0] = sql("VACUUM " + t + " RETAIN 0 HOURS"));
            System.out.println("VACUUM on " + api + ": " + done[0].size() + " objects, calls " + vacuumCalls);
            assertThat(done[0]).extracting(r -> r.getString(0)).containsExactlyInAnyOrderElementsOf(toolDry);
            // The manifest, one listing, one bulk delete for the two parts (and Swift's authentication of the
            // vacuum's own file system instance).
            Map<CallType, Long> expected = new java.util.HashMap<>(Map.of(CallType.GET, 1L, CallType.LIST, 1L,
                    CallType.BULK_DELETE, 1L));
            if (api.equals("swift")) {
                expected.put(CallType.AUTH, 1L);
            }
            assertThat(done[0]).hasSize(2);
            assertThat(vacuumCalls).as("VACUUM at the store").isEqualTo(expected);
            assertThat(sql("VACUUM " + t + " RETAIN 0 HOURS DRY RUN")).isEmpty();
            assertThat(sql("SELECT count(*) FROM " + t).get(0).getLong(0)).isEqualTo(10);
        } finally {
            spark.conf().unset("fs.stork.maintenance.retention.check");
        }
        assertThat(StorkDataset.forPath(spark, path).history().count()).isEqualTo(4);
    }
}
