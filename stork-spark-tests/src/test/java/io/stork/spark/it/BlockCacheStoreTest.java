package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import io.stork.store.CallType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark scans with the block cache on (fs.stork.cache.enabled for both buckets), on the local store: a
 * repeated scan opens no part at the store, an overwrite is read anew, an old generation comes from the
 * cache; every GET counted at the store's access log, the client agreeing.
 */
class BlockCacheStoreTest {

    private static final String S3_BUCKET = "it-cache-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-cache-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;
    private static Path cacheDir;

    @BeforeAll
    static void startSpark() throws Exception {
        cacheDir = Files.createTempDirectory("stork-it-cache");
        spark = SparkOnLocalStore.builder("stork-block-cache", S3_BUCKET, SWIFT_BUCKET)
                .config("spark.hadoop.fs.stork.cache.enabled", System.getProperty("it.cache", "true"))
                .config("spark.hadoop.fs.stork.cache.directory", cacheDir.toString())
                .config("spark.hadoop.fs.stork.cache.block.size", "64k")
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not inside a counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    /**
     * The GETs of part objects below {@code dataset} that {@code query} made at the store, once the blocks
     * it read are on disk (the cache writes them on a thread of its own).
     */
    private static List<String> partGets(String dataset, Runnable query) {
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        query.run();
        try {
            for (String bucket : List.of(S3_BUCKET, SWIFT_BUCKET)) {
                if (SparkOnLocalStore.fileSystem(spark, bucket).store() instanceof io.stork.store.cache.CachingObjectStore c) {
                    c.flush();
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return window.counts().entries().stream()
                .filter(e -> e.method().equals("GET") && e.path().contains("/" + dataset + "/part-"))
                .map(AccessLogEntry::path).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aRepeatedScanOpensNoPartAndAnOverwriteIsReadAnew(String api) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        String dataset = "events-" + UUID.randomUUID().toString().substring(0, 8);
        String path = "stork://" + bucket + "/" + dataset;
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
        spark.range(0, 20000, 1, 4).selectExpr("id", "sha2(CAST(id AS STRING), 256) AS h").write().parquet(path);

        Row[] first = new Row[1];
        String sum = "SELECT count(*), sum(id), bit_xor(xxhash64(h)) FROM parquet.`" + path + "`";
        assertThat(partGets(dataset, () -> first[0] = spark.sql(sum).collectAsList().get(0))).isNotEmpty();
        assertThat(first[0].getLong(0)).isEqualTo(20000);
        Row[] second = new Row[1];
        Map<CallType, Long> calls = SparkOnLocalStore.countedAtStore(fs, () ->
                assertThat(partGets(dataset, () -> second[0] = spark.sql(sum).collectAsList().get(0)))
                        .as("every part from the cache").isEmpty());
        assertThat(second[0]).isEqualTo(first[0]);
        assertThat(calls).as("the manifest's revalidation only").containsEntry(CallType.GET, 1L);

        // An overwrite: new parts, read from the store; the cache never answers for them with old bytes.
        spark.range(100, 110, 1, 1).selectExpr("id", "sha2(CAST(id AS STRING), 256) AS h").write().mode("overwrite")
                .parquet(path);
        Row[] third = new Row[1];
        assertThat(partGets(dataset, () -> third[0] = spark.sql(sum).collectAsList().get(0))).isNotEmpty();
        assertThat(third[0].getLong(0)).isEqualTo(10);
        assertThat(third[0].getLong(1)).isEqualTo(1045);
        // The first generation, still retained: its parts' blocks are in the cache.
        assertThat(partGets(dataset, () -> assertThat(spark.read().parquet(path + "@v1").count()).isEqualTo(20000)))
                .isEmpty();
        assertThat(fs.getIOStatistics().counters().get("stork_cache_hits")).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void textIsServedFromTheCacheToo(String api) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        String dataset = "lines-" + UUID.randomUUID().toString().substring(0, 8);
        String path = "stork://" + bucket + "/" + dataset;
        spark.range(0, 50000, 1, 3).selectExpr("CAST(id AS STRING) AS value").write().text(path);
        long[] lengths = new long[2];
        assertThat(partGets(dataset, () -> lengths[0] = spark.read().text(path).selectExpr("sum(length(value))")
                .collectAsList().get(0).getLong(0))).hasSize(3);
        assertThat(partGets(dataset, () -> lengths[1] = spark.read().text(path).selectExpr("sum(length(value))")
                .collectAsList().get(0).getLong(0))).isEmpty();
        assertThat(lengths[1]).isEqualTo(lengths[0]).isPositive();
    }

    /** The block cache's SQL metrics of a query that has run: {bytes read from the cache, bytes it fetched}. */
    private static long[] cacheMetrics(org.apache.spark.sql.Dataset<Row> query) {
        long[] bytes = new long[2];
        List<org.apache.spark.sql.execution.SparkPlan> plans = new java.util.ArrayList<>(
                List.of(query.queryExecution().executedPlan()));
        while (!plans.isEmpty()) {
            org.apache.spark.sql.execution.SparkPlan plan = plans.remove(0);
            if (plan instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec adaptive) {
                plans.add(adaptive.executedPlan());
            } else if (plan instanceof org.apache.spark.sql.execution.adaptive.QueryStageExec stage) {
                plans.add(stage.plan());
            } else if (plan instanceof io.stork.spark.skipping.SkippingScanExec scan) {
                bytes[0] += scan.metrics().apply("cacheBytesServed").value();
                bytes[1] += scan.metrics().apply("cacheBytesFetched").value();
            }
            plans.addAll(scala.jdk.javaapi.CollectionConverters.asJava(plan.children()));
        }
        return bytes;
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "text"})
    void aQuerysMetricsSayWhatItsTasksReadFromTheCache(String format) {
        String dataset = "metrics-" + UUID.randomUUID().toString().substring(0, 8);
        String path = "stork://" + S3_BUCKET + "/" + dataset;
        // Parquet parts of a few MiB, whose column chunks a reader fetches with vectored reads past the footer.
        (format.equals("parquet") ? spark.range(0, 300000, 1, 3).selectExpr("CAST(id AS STRING) AS value",
                "sha2(CAST(id AS STRING), 256) AS h") : spark.range(0, 30000, 1, 3).selectExpr("CAST(id AS STRING) AS value"))
                .write().format(format).save(path);
        org.apache.spark.sql.Dataset<Row> first = spark.read().format(format).load(path).selectExpr("sum(length(value))");
        org.apache.hadoop.fs.statistics.IOStatistics files;
        try {
            files = SparkOnLocalStore.fileSystem(spark, S3_BUCKET).getIOStatistics();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        long fetchedBefore = files.counters().get("stork_cache_bytes_fetched");
        partGets(dataset, () -> first.collectAsList());
        long[] cold = cacheMetrics(first);
        // What the query's tasks say they fetched is what the bucket's cache fetched while they ran.
        assertThat(cold[1]).isEqualTo(files.counters().get("stork_cache_bytes_fetched") - fetchedBefore);
        org.apache.spark.sql.Dataset<Row> second = spark.read().format(format).load(path).selectExpr("sum(length(value))");
        assertThat(partGets(dataset, () -> second.collectAsList())).isEmpty();
        long[] warm = cacheMetrics(second);
        System.out.println(format + ": cold scan read " + cold[0] + " bytes from the cache, it fetched " + cold[1]
                + "; warm scan " + warm[0] + " and " + warm[1]);
        // The cold scan fetched (for Parquet, the footer schema inference read is in the cache already); the
        // warm one read the same bytes, all from the cache. Parquet's column chunks come through vectored reads
        // on the file system's pool: counted for the task that asked for them.
        assertThat(cold[1]).isPositive();
        assertThat(warm[0]).isEqualTo(cold[0] + cold[1]);
        assertThat(warm[1]).isZero();
    }
}
