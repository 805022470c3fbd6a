package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.commit.DatasetProperties;
import io.stork.commit.DatasetToolAccess;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.store.CallType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dataset properties over the memory store: kept in the manifest, set by a write's option or by
 * set-property (a generation naming the same parts), and obeyed by whoever maintains or writes the
 * dataset later, whatever its own keys say: write option > dataset property > bucket key > session key >
 * default (docs/configuration.md#precedence).
 */
class DatasetPropertiesMemoryTest {

    private static final String BUCKET = "unit-props";
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        spark = MemorySpark.session("stork-dataset-properties", Map.of("spark.stork.layout.history.flushInterval", "1h"));
    }

    @AfterAll
    static void stopSpark() {
        MemorySpark.stop(spark);
    }

    private static FileSystem fs() throws IOException {
        return new Path("stork://" + BUCKET + "/").getFileSystem(spark.sparkContext().hadoopConfiguration());
    }

    /** Every object under the dataset, as the store holds them (not the manifest's view). */
    private static List<String> objects(String dataset) throws IOException {
        Configuration raw = new Configuration(spark.sparkContext().hadoopConfiguration());
        raw.setBoolean("fs.stork.read.raw", true);
        raw.setBoolean("fs.stork.impl.disable.cache", true);
        List<String> keys = new ArrayList<>();
        try (FileSystem rawFs = FileSystem.newInstance(new Path(dataset).toUri(), raw)) {
            RemoteIterator<LocatedFileStatus> it = rawFs.listFiles(new Path(dataset), true);
            while (it.hasNext()) {
                keys.add(it.next().getPath().toUri().getPath());
            }
        }
        return keys;
    }

    private static List<String> partPaths(String dataset, Manifest manifest) {
        String root = new Path(dataset).toUri().getPath();
        return manifest.parts().stream().map(p -> root + "/" + p.path()).toList();
    }

    /** Writes generation 1, then overwrites it: generation 1's parts are dropped and kept for the retention. */
    private static List<String> twoGenerations(String dataset, Map<String, String> firstWriteOptions) throws IOException {
        spark.range(0, 10).repartition(2).toDF("id").write().options(firstWriteOptions).mode(SaveMode.Overwrite)
                .parquet(dataset);
        List<String> first = partPaths(dataset, MemorySpark.manifest(spark, dataset));
        spark.range(10, 20).repartition(1).toDF("id").write().mode(SaveMode.Overwrite).parquet(dataset);
        return first;
    }

    /** The tool in this JVM as a session without any retention key runs it (the memory store is shared). */
    private static int tool(String... args) throws IOException {
        List<String> line = new ArrayList<>(List.of(args[0], "-Dfs.stork.api=memory",
                "-Dfs.stork.maintenance.retention.check=false"));
        line.addAll(List.of(args).subList(1, args.length));
        return DatasetToolAccess.run(line.toArray(new String[0]));
    }

    @Test
    void aDatasetWrittenWithARetentionIsVacuumedByItBySessionsWithoutTheKey() throws IOException {
        String kept = "stork://" + BUCKET + "/default-retention";
        String own = "stork://" + BUCKET + "/own-retention";
        List<String> keptFirst = twoGenerations(kept, Map.of());
        List<String> ownFirst = twoGenerations(own, Map.of("stork.retention", "1ms"));

        Manifest manifest = MemorySpark.manifest(spark, own);
        assertThat(manifest.properties()).as("the write option, kept by the overwrite that did not give it")
                .containsEntry("stork.retention", "1ms");
        assertThat(MemorySpark.manifest(spark, kept).properties()).doesNotContainKey("stork.retention");

        assertThat(tool("vacuum", kept)).isZero();
        assertThat(objects(kept)).as("the session's default, 7 days: generation 1 still readable")
                .containsAll(keptFirst);
        assertThat(tool("vacuum", own)).isZero();
        assertThat(objects(own)).as("the dataset's 1 ms: generation 1's parts are gone").doesNotContainAnyElementsOf(ownFirst)
                .containsAll(partPaths(own, MemorySpark.manifest(spark, own)));
        assertThat(spark.read().parquet(own).count()).isEqualTo(10);

        // Time travel refuses the vacuumed generation by the dataset's retention, not the reader's 7 days.
        assertThatThrownBy(() -> fs().listStatus(new Path(own + "@v1")))
                .hasMessageContaining("older than the retention period (dataset property stork.retention=PT0.001S)");
    }

    @Test
    void theDatasetPropertyWinsOverBucketAndSessionKeysAndAWriteOptionOverTheProperty() throws IOException {
        String dataset = "stork://" + BUCKET + "/precedence";
        List<String> first = twoGenerations(dataset, Map.of());
        Manifest before = MemorySpark.manifest(spark, dataset);

        Map<CallType, Long> calls;
        try {
            calls = MemorySpark.calls(BUCKET, () -> DatasetProperties.set(fs(), new Path(dataset),
                    Map.of("stork.retention", "30d", "owner", "team-a")));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        Manifest after = MemorySpark.manifest(spark, dataset);
        assertThat(after.generation()).isEqualTo(before.generation() + 1);
        assertThat(after.parts()).as("the same parts, nothing rewritten").isEqualTo(before.parts());
        assertThat(after.properties()).containsEntry("stork.retention", "30d").containsEntry("owner", "team-a");
        assertThat(calls).as("the manifest read, then the new generation's claim and manifest")
                .isEqualTo(Map.of(CallType.GET, 1L, CallType.PUT, 2L));

        // bucket and session keys of 1 ms: the dataset's 30 days hold
        assertThat(tool("vacuum", "-Dfs.stork.bucket." + BUCKET + ".retention=1ms", "-Dfs.stork.retention=1ms",
                dataset)).isZero();
        assertThat(objects(dataset)).containsAll(first);

        // a write's own option wins over the property, and is the property from then on
        spark.range(20, 25).coalesce(1).toDF("id").write().option("stork.retention", "2h").mode(SaveMode.Append)
                .parquet(dataset);
        assertThat(MemorySpark.manifest(spark, dataset).properties()).containsEntry("stork.retention", "2h")
                .containsEntry("owner", "team-a");

        // unset: the bucket's key applies again (over the session's 30 days)
        assertThat(tool("unset-property", dataset, "stork.retention")).isZero();
        assertThat(MemorySpark.manifest(spark, dataset).properties()).doesNotContainKey("stork.retention")
                .containsEntry("owner", "team-a");
        assertThat(tool("vacuum", "-Dfs.stork.bucket." + BUCKET + ".retention=1ms", "-Dfs.stork.retention=30d",
                dataset)).isZero();
        assertThat(objects(dataset)).doesNotContainAnyElementsOf(first);
        assertThat(spark.read().parquet(dataset).count()).isEqualTo(15);
    }

    @Test
    void badPropertiesAreRefusedBeforeAnythingIsWritten() throws Exception {
        String dataset = "stork://" + BUCKET + "/refused";
        spark.range(0, 3).coalesce(1).toDF("id").write().mode(SaveMode.Overwrite).parquet(dataset);
        long generation = MemorySpark.manifest(spark, dataset).generation();
        assertThatThrownBy(() -> DatasetProperties.set(fs(), new Path(dataset), Map.of("stork.retension", "30d")))
                .hasMessageStartingWith("dataset property stork.retension is not one Stork knows");
        assertThatThrownBy(() -> DatasetProperties.set(fs(), new Path(dataset), Map.of("stork.retention", "30")))
                .hasMessage("dataset property stork.retention: '30' is not a duration with a unit (100ms, 10s, 5m, "
                        + "24h, 7d)");
        assertThatThrownBy(() -> DatasetProperties.set(fs(), new Path(dataset), Map.of("stork.skipping.colums", "id")))
                .hasMessageStartingWith("dataset property stork.skipping.colums is not one of data skipping's options "
                        + "(stork.skipping.bloom.fpp, ");
        assertThatThrownBy(() -> DatasetProperties.unset(fs(), new Path(dataset), List.of("owner")))
                .hasMessageContaining("has no dataset property owner to unset");
        assertThatThrownBy(() -> tool("set-property", dataset, "stork.retention=soon")).as("a usage error (exit 2)")
                .hasMessage("dataset property stork.retention: 'soon' is not a duration with a unit (100ms, 10s, 5m, "
                        + "24h, 7d)");
        assertThatThrownBy(() -> tool("unset-property", dataset, "stork.fenced.attempts"))
                .hasMessageContaining("has no dataset property stork.fenced.attempts");
        assertThatThrownBy(() -> spark.range(1).toDF("id").write().option("stork.retention", "7")
                .mode(SaveMode.Append).parquet(dataset)).hasMessageContaining("write option stork.retention: '7' is "
                        + "not a duration with a unit");
        assertThat(MemorySpark.manifest(spark, dataset).generation()).isEqualTo(generation);
    }

    @Test
    void anAppendBySessionWithoutSkippingKeysUsesTheDatasetsColumns() throws IOException {
        String dataset = "stork://" + BUCKET + "/skipping";
        spark.range(0, 10).selectExpr("id", "CAST(id AS STRING) AS name").coalesce(1).write()
                .mode(SaveMode.Overwrite).parquet(dataset);
        // Set through this session's file system, as SQL's ALTER TABLE would: its next write sees it at once.
        DatasetProperties.set(fs(), new Path(dataset), Map.of("stork.skipping.columns", "name"));
        spark.range(10, 20).selectExpr("id", "CAST(id AS STRING) AS name").coalesce(1).write()
                .mode(SaveMode.Append).parquet(dataset);
        Manifest manifest = MemorySpark.manifest(spark, dataset);
        ManifestPart appended = manifest.parts().stream().filter(p -> p.addedIn() == manifest.generation())
                .findFirst().orElseThrow();
        assertThat(manifest.properties()).containsEntry("stork.skipping.columns", "name");
        System.out.println("appended part's statistics: " + appended.statsJson());
        assertThat(appended.statsJson()).contains("\"name\"").doesNotContain("\"id\"");
    }
}
