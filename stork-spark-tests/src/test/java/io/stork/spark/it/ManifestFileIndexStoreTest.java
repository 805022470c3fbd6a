package io.stork.spark.it;

import io.stork.spark.PlanFileIndexes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.spark.read.ManifestFileIndex;
import io.stork.spark.read.ManifestRelationRule;
import io.stork.spark.skipping.DataSkipping;
import io.stork.store.CallType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.InMemoryFileIndex;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads of a dataset's root resolve to {@link ManifestFileIndex} and answer exactly as Spark's own file
 * index does over the same dataset: schema (partition columns and their inferred types), rows, partition
 * pruning, file metadata filters, input files; every format; on the local store, with the calls counted
 * there. Spark's answer is had by turning the rule off ({@value ManifestRelationRule#ENABLED}) in the same
 * session.
 */
class ManifestFileIndexStoreTest {

    private static final String BUCKET = "it-mfi-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-mfi-sw-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-manifest-index", BUCKET, SWIFT_BUCKET)
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not inside a counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    @AfterEach
    void ruleOn() {
        spark.conf().set(ManifestRelationRule.ENABLED, "true");
    }

    private static String path(String name) {
        return "stork://" + BUCKET + "/" + name;
    }

    /** Rows with nulls, unicode, an empty string; partition columns with a null and mixed-looking values. */
    private static Dataset<Row> rows(int n) {
        return spark.range(0, n, 1, 3).selectExpr("id",
                "CASE WHEN id % 7 = 0 THEN NULL WHEN id % 5 = 0 THEN '' ELSE concat('név-', CAST(id AS STRING)) END AS name",
                "CAST(2020 + id % 3 AS INT) AS year",
                "CASE WHEN id % 4 = 0 THEN NULL ELSE element_at(array('eu', 'us', 'ap west'), CAST(id % 3 + 1 AS INT)) END AS region",
                "CAST(id AS DOUBLE) / 3 AS score");
    }

    private static List<String> sorted(Dataset<Row> df) {
        List<String> rows = new ArrayList<>();
        for (Row row : df.collectAsList()) {
            rows.add(row.toString());
        }
        rows.sort(null);
        return rows;
    }

    /** The same read and queries with the rule on and off: the same schema, rows and input files. */
    private static void sameAsSpark(Function<SparkSession, Dataset<Row>> read, String... filters) {
        spark.conf().set(ManifestRelationRule.ENABLED, "false");
        Dataset<Row> spark1 = read.apply(spark);
        assertThat(PlanFileIndexes.of(spark1)).isInstanceOf(InMemoryFileIndex.class);
        List<List<String>> expected = new ArrayList<>();
        expected.add(sorted(spark1));
        for (String filter : filters) {
            expected.add(sorted(spark1.where(filter)));
        }
        List<String> expectedFiles = Arrays.stream(spark1.inputFiles()).sorted().toList();

        spark.conf().set(ManifestRelationRule.ENABLED, "true");
        Dataset<Row> stork = read.apply(spark);
        assertThat(PlanFileIndexes.of(stork)).isInstanceOf(ManifestFileIndex.class);
        assertThat(stork.schema()).isEqualTo(spark1.schema());
        assertThat(sorted(stork)).isEqualTo(expected.get(0)).isNotEmpty();
        for (int i = 0; i < filters.length; i++) {
            assertThat(sorted(stork.where(filters[i]))).as(filters[i]).isEqualTo(expected.get(i + 1));
        }
        assertThat(Arrays.stream(stork.inputFiles()).sorted().toList()).isEqualTo(expectedFiles);
    }

    @Test
    void partitionedParquetAnswersAsSparksIndex() {
        String path = path("parted");
        rows(200).write().partitionBy("year", "region").parquet(path);
        sameAsSpark(s -> s.read().parquet(path),
                "year = 2021", "region IS NULL", "year > 2020 AND region = 'ap west'", "region = 'nowhere'",
                "year = 2022 OR id = 3", "id BETWEEN 10 AND 20", "_metadata.file_name LIKE '%c000%'",
                "name IS NULL AND year = 2020");
        // The partition columns are Spark's: inferred types, a null partition.
        Dataset<Row> df = spark.read().parquet(path);
        assertThat(df.schema().apply("year").dataType().typeName()).isEqualTo("integer");
        assertThat(df.where("region IS NULL").count()).isEqualTo(50);
        // A user's schema gives the partition column's type, as in Spark.
        sameAsSpark(s -> s.read().schema("id LONG, name STRING, score DOUBLE, year STRING, region STRING")
                .parquet(path), "year = '2021'");
        // Type inference off: strings.
        spark.conf().set("spark.sql.sources.partitionColumnTypeInference.enabled", "false");
        try {
            sameAsSpark(s -> s.read().parquet(path), "year = '2020'");
        } finally {
            spark.conf().unset("spark.sql.sources.partitionColumnTypeInference.enabled");
        }
    }

    @Test
    void everyFormatAnswersAsSparksIndex() {
        Dataset<Row> data = rows(90);
        data.write().option("header", "true").csv(path("csv"));
        // CSV with the recorded schema gets the written types (SchemaInManifestStoreTest); here, the index
        // against Spark's with inference on both sides.
        withoutRecordedSchema(() -> sameAsSpark(s -> s.read().option("header", "true").option("inferSchema", "true")
                .csv(path("csv")), "id < 10", "name IS NULL"));
        data.write().partitionBy("year").json(path("json"));
        sameAsSpark(s -> s.read().json(path("json")), "year = 2021 AND id > 40");
        data.write().partitionBy("region").orc(path("orc"));
        sameAsSpark(s -> s.read().orc(path("orc")), "region = 'eu'", "region IS NULL AND score > 10");
        data.selectExpr("name").write().text(path("text"));
        sameAsSpark(s -> s.read().text(path("text")), "value LIKE 'név-1%'");
        data.write().parquet(path("merged"));
        data.selectExpr("id", "year AS extra").write().mode("append").parquet(path("merged"));
        // Two schemas: Spark alone reads the first file's (which, depends on the parts' random names); with
        // the recorded schema, the merged one, as mergeSchema (SchemaInManifestStoreTest).
        withoutRecordedSchema(() -> {
            sameAsSpark(s -> s.read().option("mergeSchema", "true").parquet(path("merged")), "extra IS NULL");
            sameAsSpark(s -> s.read().format("parquet").load(path("merged")), "id = 5");
        });
    }

    private static void withoutRecordedSchema(Runnable test) {
        spark.conf().set("spark.stork.read.recordedSchema", "false");
        try {
            test.run();
        } finally {
            spark.conf().unset("spark.stork.read.recordedSchema");
        }
    }

    @Test
    void sqlOnADatasetAnswersAsSparksIndex() {
        String parted = path("sql-parted");
        rows(120).write().partitionBy("year").parquet(parted);
        sameAsSpark(s -> s.sql("SELECT * FROM parquet.`" + parted + "`"), "year = 2021", "id < 10 OR region IS NULL");
        String json = path("sql-json");
        rows(50).write().json(json);
        sameAsSpark(s -> s.sql("SELECT id, name FROM json.`" + json + "` WHERE id > 20"), "name IS NULL");
        // A time-travel clause on a Stork path reads that generation (docs/sql.md); before the first commit,
        // one line says so.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> spark.sql("SELECT * FROM parquet.`" + parted
                + "` TIMESTAMP AS OF '2026-01-01 00:00:00'").queryExecution().assertAnalyzed())
                .hasMessageContaining("was committed at or before 2026-01-01T00:00:00Z")
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void readsOtherThanADatasetRootAreSparks() {
        String path = path("others");
        rows(60).write().partitionBy("year").parquet(path);
        // A directory inside a dataset, a basePath, a glob: Spark's own index, as before.
        assertThat(PlanFileIndexes.of(spark.read().parquet(path + "/year=2020"))).isInstanceOf(InMemoryFileIndex.class);
        assertThat(PlanFileIndexes.of(spark.read().option("basePath", path).parquet(path + "/year=2020")))
                .isInstanceOf(InMemoryFileIndex.class);
        assertThat(spark.read().option("basePath", path).parquet(path + "/year=2020").count()).isEqualTo(20);
        assertThat(PlanFileIndexes.of(spark.read().parquet(path + "/*"))).isInstanceOf(InMemoryFileIndex.class);
        // A missing dataset fails as Spark says it.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> spark.read().parquet(path("missing")))
                .hasMessageContaining("PATH_NOT_FOUND");
    }

    @Test
    void timeTravelAndRefreshReadTheirGeneration() {
        String path = path("generations");
        rows(30).write().parquet(path);
        rows(45).write().mode("append").parquet(path);
        Dataset<Row> first = spark.read().option("versionAsOf", "1").parquet(path);
        assertThat(PlanFileIndexes.of(first)).isInstanceOf(ManifestFileIndex.class);
        assertThat(first.count()).isEqualTo(30);
        Dataset<Row> current = spark.read().parquet(path);
        ManifestFileIndex index = (ManifestFileIndex) PlanFileIndexes.of(current);
        assertThat(current.count()).isEqualTo(75);
        rows(15).write().mode("append").parquet(path);
        // A DataFrame keeps the generation it was made on, as Spark's listing keeps its files ...
        assertThat(current.count()).isEqualTo(75);
        // ... until refreshed.
        index.refresh();
        assertThat(index.parts().generation()).isEqualTo(3);
        assertThat(current.count()).isEqualTo(90);
    }

    @Test
    void aCachedReadIsFoundAgainAsWithSparksIndex() {
        String path = path("cached");
        rows(40).write().parquet(path);
        Dataset<Row> cached = spark.read().parquet(path).cache();
        try {
            assertThat(cached.count()).isEqualTo(40);
            Dataset<Row> again = spark.read().parquet(path).where("id > 10");
            assertThat(again.queryExecution().withCachedData().toString()).contains("InMemoryRelation");
            assertThat(again.count()).isEqualTo(29);
        } finally {
            cached.unpersist();
        }
    }

    @Test
    void makingTheDataFrameCostsNoMoreCallsThanSparksListing() throws Exception {
        for (String bucket : new String[] {BUCKET, SWIFT_BUCKET}) {
            String path = "stork://" + bucket + "/calls";
            rows(120).write().partitionBy("year").parquet(path);
            Map<CallType, Long> byStork = callsToMake(bucket, path, true);
            Map<CallType, Long> bySpark = callsToMake(bucket, path, false);
            // The manifest's GET either way, and without the rule the footer schema inference reads (with it,
            // the manifest's schema); never a LIST.
            assertThat(byStork.getOrDefault(CallType.LIST, 0L)).isZero();
            assertThat(byStork.getOrDefault(CallType.GET, 0L)).isEqualTo(bySpark.getOrDefault(CallType.GET, 0L) - 1)
                    .isPositive();
            assertThat(byStork.values().stream().mapToLong(Long::longValue).sum())
                    .isLessThanOrEqualTo(bySpark.values().stream().mapToLong(Long::longValue).sum());
        }
    }

    @Test
    void aDirectoryNoCommitWroteCostsNoExtraCall() throws Exception {
        for (String bucket : new String[] {BUCKET, SWIFT_BUCKET}) {
            // Uploaded by another tool: plain objects, no manifest.
            String dir = "stork://" + bucket + "/uploaded";
            StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
            for (int i = 0; i < 3; i++) {
                try (var out = fs.create(new org.apache.hadoop.fs.Path(dir + "/file-" + i + ".csv"))) {
                    out.write(("a,b\n" + i + ",x\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            Map<CallType, Long> byStork = callsToRead(bucket, dir, true);
            Map<CallType, Long> bySpark = callsToRead(bucket, dir, false);
            assertThat(byStork).isEqualTo(bySpark);
            // Making the DataFrame and collecting it each list the directory (a manifest probe, the LIST, and
            // Spark's look for _spark_metadata) and then list each file again, as CSV inference and the scan
            // do: a file lists as itself by one HEAD, then from the status cache. It cost a manifest probe,
            // a LIST and a HEAD per file per listing (18 calls here) before names with extensions were taken
            // for files first.
            Map<CallType, Long> withoutAuth = new java.util.HashMap<>(byStork);
            withoutAuth.remove(CallType.AUTH);
            assertThat(withoutAuth).isEqualTo(Map.of(CallType.GET, 5L, CallType.HEAD, 3L, CallType.LIST, 4L));
        }
    }

    /** Calls to read a directory as CSV, on a file system with nothing cached. */
    private static Map<CallType, Long> callsToRead(String bucket, String dir, boolean rule) throws Exception {
        spark.conf().set(ManifestRelationRule.ENABLED, Boolean.toString(rule));
        SparkOnLocalStore.fileSystem(spark, bucket).close();
        StorkFileSystem fresh = SparkOnLocalStore.fileSystem(spark, bucket);
        return SparkOnLocalStore.countedAtStore(fresh, () -> {
            Dataset<Row> df = spark.read().option("header", "true").csv(dir);
            assertThat(PlanFileIndexes.of(df)).isInstanceOf(InMemoryFileIndex.class);
            assertThat(df.collectAsList()).hasSize(3);
        });
    }

    /** Calls to make the DataFrame and run a query on a file system with nothing cached. */
    private static Map<CallType, Long> callsToMake(String bucket, String path, boolean rule) throws Exception {
        spark.conf().set(ManifestRelationRule.ENABLED, Boolean.toString(rule));
        SparkOnLocalStore.fileSystem(spark, bucket).close(); // the next use makes a new one: nothing cached
        StorkFileSystem fresh = SparkOnLocalStore.fileSystem(spark, bucket);
        return SparkOnLocalStore.countedAtStore(fresh, () -> {
            Dataset<Row> df = spark.read().parquet(path).where("year = 2021 AND id = 4");
            assertThat(df.collectAsList()).hasSize(1);
            assertThat(DataSkipping.reports(df)).hasSize(1);
        });
    }

    @Test
    void skippingJudgesPartsBeforeTheirStatusesAreMade() {
        String path = path("skipped");
        spark.range(0, 400, 1, 1).selectExpr("id", "id % 2 AS half").repartitionByRange(8,
                org.apache.spark.sql.functions.col("id")).write().partitionBy("half").parquet(path);
        Dataset<Row> q = spark.read().parquet(path).where("id BETWEEN 100 AND 120 AND half = 0");
        assertThat(PlanFileIndexes.of(q)).isInstanceOf(ManifestFileIndex.class);
        assertThat(q.collectAsList()).hasSize(11);
        var report = DataSkipping.reports(q).get(0);
        // Partition pruning first (8 of 16 parts listed), then statistics: one part of the half=0 partition read.
        assertThat(report.objectsListed()).isEqualTo(8);
        assertThat(report.objectsRead()).isEqualTo(1);
        scala.collection.immutable.Seq<org.apache.spark.sql.catalyst.expressions.Expression> none =
                CollectionConverters.asScala(List.<org.apache.spark.sql.catalyst.expressions.Expression>of()).toList();
        // Without filters: both partitions, every part.
        var listed = CollectionConverters.asJava(((ManifestFileIndex) PlanFileIndexes.of(q)).listFiles(none, none));
        assertThat(listed).hasSize(2);
        assertThat(listed.stream().mapToInt(d -> d.files().size()).sum()).isEqualTo(16);
    }
}
