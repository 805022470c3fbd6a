package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import io.stork.manifest.PartNames;
import io.stork.spark.skipping.DataSkipping;
import io.stork.store.ByteRange;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Datasets whose manifest names segments (fs.stork.manifest.inline.parts=3 here, 10,000 by default), on
 * the local store: parts and statistics sealed at commit, read back by a cold reader, skipped by their
 * statistics, kept across appends, overwrites and time travel; calls counted at the store.
 */
class SegmentedDatasetStoreTest {

    private static final String S3_BUCKET = "it-seg-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-seg-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-segments", S3_BUCKET, SWIFT_BUCKET)
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not inside a counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .config("spark.hadoop.fs.stork.manifest.inline.parts", "3")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static void write(String path, long from, long to, int parts, String mode) {
        spark.range(from, to, 1, 1).selectExpr("id", "concat('name-', CAST(id AS STRING)) AS name")
                .repartitionByRange(parts, org.apache.spark.sql.functions.col("id"))
                .write().mode(mode).parquet(path);
    }

    /** GETs of the dataset's objects a query makes, by object name (the manifest's included). */
    private static List<String> gets(String path, Runnable query) {
        String dataset = path.substring(path.lastIndexOf('/') + 1);
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        query.run();
        return window.counts().entries().stream()
                .filter(e -> e.method().equals("GET") && e.path().contains("/" + dataset + "/"))
                .map(AccessLogEntry::path).map(p -> p.substring(p.indexOf(dataset + "/") + dataset.length() + 1))
                .toList();
    }

    private static String manifestText(StorkFileSystem fs, String bucket, String key) throws Exception {
        try (ObjectStream in = fs.store().get(ObjectKey.of(bucket, key + "/" + PartNames.MANIFEST), ByteRange.all())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aSegmentedDatasetIsReadSkippedAppendedOverwrittenAndTravelled(String api) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        String key = "seg-" + UUID.randomUUID().toString().substring(0, 8);
        String path = "stork://" + bucket + "/" + key;
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);

        // The write: 8 parts, more than 3, so the commit seals them into one segment: one PUT more.
        var calls = SparkOnLocalStore.countedAtStore(fs, () -> write(path, 0, 1000, 8, "overwrite"));
        String manifest = manifestText(fs, bucket, key);
        assertThat(manifest).contains("\"version\":2").contains("\"segments\":[").doesNotContain("part-0");
        String segment = manifest.replaceAll("(?s).*\"segments\":\\[\\s*\\{\"name\":\"([^\"]+)\".*", "$1");
        assertThat(fs.store().head(ObjectKey.of(bucket, key + "/_stork/segments/" + segment))).isNotNull();
        assertThat(calls.get(io.stork.store.CallType.PUT)).as("8 parts, the segment, the manifest").isEqualTo(10);

        // A reader that has nothing cached: the manifest and the segment, then only the object that can hold id 637.
        Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
        try (FileSystem cold = FileSystem.newInstance(URI.create(path), conf)) {
            List<String> got = gets(path, () -> {
                try {
                    FileStatus[] listed = cold.listStatus(new Path(path));
                    assertThat(listed).hasSize(8);
                    assertThat(java.util.Arrays.stream(listed).mapToLong(FileStatus::getLen).sum()).isPositive();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThat(got).containsExactlyInAnyOrder(PartNames.MANIFEST, "_stork/segments/" + segment);
        }
        Dataset<Row> lookup = spark.read().parquet(path).where("id = 637");
        List<String> got = gets(path, () -> assertThat(lookup.collectAsList()).extracting(r -> r.getString(1))
                .containsExactly("name-637"));
        assertThat(got.stream().filter(g -> g.startsWith("part-")).distinct()).hasSize(1);
        assertThat(DataSkipping.reports(lookup).get(0).objectsRead()).isEqualTo(1);
        assertThat(DataSkipping.reports(lookup).get(0).withStatistics()).isEqualTo(8);

        // An append below the limit: listed by the manifest itself; the segment is not fetched again.
        write(path, 1000, 1200, 2, "append");
        Dataset<Row> afterAppend = spark.read().parquet(path).where("id = 1100 OR id = 5");
        got = gets(path, () -> assertThat(afterAppend.collectAsList()).hasSize(2));
        assertThat(got).noneMatch(g -> g.startsWith("_stork/"));
        assertThat(got.stream().filter(g -> g.startsWith("part-")).distinct()).hasSize(2);
        assertThat(spark.read().parquet(path).count()).isEqualTo(1200);

        // An overwrite: the segment's parts are removed, still readable by generation.
        write(path, 5000, 5010, 1, "overwrite");
        assertThat(spark.read().parquet(path).count()).isEqualTo(10);
        assertThat(spark.read().parquet(path + "@v1").count()).isEqualTo(1000);
        assertThat(spark.read().parquet(path + "@v2").where("id >= 990").count()).isEqualTo(210);
        assertThat(manifestText(fs, bucket, key)).contains("\"removed\":[[0,7,3,");

        // A reader of the file system API with nothing cached sees generation 3 and can list generation 1.
        try (FileSystem fresh = FileSystem.newInstance(URI.create(path), conf)) {
            assertThat(fresh.listStatus(new Path(path))).hasSize(1);
            assertThat(fresh.listStatus(new Path(path + "@v1"))).hasSize(8);
        }
    }

    private static final class Configuration extends org.apache.hadoop.conf.Configuration {
        Configuration(org.apache.hadoop.conf.Configuration other) {
            super(other);
        }
    }
}
