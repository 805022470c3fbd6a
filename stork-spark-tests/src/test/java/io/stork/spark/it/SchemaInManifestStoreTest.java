package io.stork.spark.it;

import io.stork.spark.PlanFileIndexes;
import static io.stork.spark.it.SparkOnLocalStore.countedAtStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.PartNames;
import io.stork.spark.read.ManifestFileIndex;
import io.stork.spark.skipping.DataSkipping;
import io.stork.spark.skipping.ScanReport;
import io.stork.store.CallType;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26 at the real store, both APIs, calls counted at its access log: the schema recorded in the manifest
 * makes a one-row Parquet read 2 calls (the manifest, the part) and CSV/JSON planning read no data, with writes'
 * costs unchanged (3 for one task, 10 for 8 parts); schema evolution; catalog tables read through the manifest
 * with the same rows and calls as their path, skipping applied.
 */
class SchemaInManifestStoreTest {

    private static final String S3 = "it-schema-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT = "it-schema-sw-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String RECORDED = "spark.stork.read.recordedSchema";
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-schema-in-manifest", S3, SWIFT)
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                .config("spark.stork.layout.history.flushInterval", "1h")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3, SWIFT);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    @AfterEach
    void recordedOn() {
        spark.conf().unset(RECORDED);
    }

    private static String bucket(String api) {
        return api.equals("s3") ? S3 : SWIFT;
    }

    private static String path(String api, String name) {
        return "stork://" + bucket(api) + "/" + name + "-" + UUID.randomUUID().toString().substring(0, 6);
    }

    /** A file system with nothing cached (the next use makes a new one). */
    private static StorkFileSystem fresh(String api) throws Exception {
        SparkOnLocalStore.fileSystem(spark, bucket(api)).close();
        return SparkOnLocalStore.fileSystem(spark, bucket(api));
    }

    /** Calls at the store, without Swift's authentication (made once per new client, not per read). */
    private static Map<CallType, Long> calls(StorkFileSystem fs, SparkOnLocalStore.Action action) throws Exception {
        Map<CallType, Long> calls = new HashMap<>(countedAtStore(fs, action));
        calls.remove(CallType.AUTH);
        return calls;
    }

    private static Manifest manifest(StorkFileSystem fs, String dataset) throws Exception {
        try (InputStream in = fs.open(new Path(dataset, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    private static List<String> sorted(Dataset<Row> df) {
        return df.collectAsList().stream().map(Row::toString).sorted().toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aOneRowParquetReadIsTwoCallsAndWritesCostWhatTheyCost(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String one = path(api, "one-row");
        Map<CallType, Long> write = calls(fs, () -> spark.range(1).selectExpr("id", "CAST(id AS STRING) AS s")
                .coalesce(1).write().parquet(one));
        assertThat(write).as("one-task write: existence check, the part, the manifest")
                .isEqualTo(Map.of(CallType.LIST, 1L, CallType.PUT, 2L));
        assertThat(manifest(fs, one).schema()).contains("\"name\":\"s\"");

        String eight = path(api, "eight");
        Map<CallType, Long> eightWrite = calls(fs, () -> spark.range(0, 80, 1, 8).write().parquet(eight));
        assertThat(eightWrite.values().stream().mapToLong(Long::longValue).sum()).as("8-part write: " + eightWrite)
                .isEqualTo(10);

        List<Row>[] rows = new List[1];
        StorkFileSystem cold = fresh(api);
        Map<CallType, Long> read = calls(cold, () -> rows[0] = spark.read().parquet(one).collectAsList());
        assertThat(rows[0]).hasSize(1);
        assertThat(read).as("the manifest, then one GET of the part").isEqualTo(Map.of(CallType.GET, 2L));

        spark.conf().set(RECORDED, "false");
        StorkFileSystem coldAgain = fresh(api);
        Map<CallType, Long> inferred = calls(coldAgain, () -> spark.read().parquet(one).collectAsList());
        assertThat(inferred).as("inferring, as before: the driver's footer read, then the task's")
                .isEqualTo(Map.of(CallType.GET, 3L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void csvAndJsonPlanningReadsNoDataAndRowsAreTheWrittenOnes(String api) throws Exception {
        Dataset<Row> data = spark.range(0, 40, 1, 4).selectExpr("id", "CAST(id % 3 AS INT) AS k", "concat('v', id) AS s");
        String csv = path(api, "csv");
        String json = path(api, "json");
        data.write().option("header", "true").partitionBy("k").csv(csv);
        data.write().json(json);

        Dataset<Row>[] df = new Dataset[2];
        assertThat(calls(fresh(api), () -> df[0] = spark.read().option("header", "true").csv(csv)))
                .as("the manifest only").isEqualTo(Map.of(CallType.GET, 1L));
        assertThat(calls(fresh(api), () -> df[1] = spark.read().json(json))).isEqualTo(Map.of(CallType.GET, 1L));
        assertThat(df[0].schema().simpleString()).isEqualTo("struct<id:bigint,s:string,k:int>");
        assertThat(df[1].schema().simpleString()).isEqualTo("struct<id:bigint,k:int,s:string>");
        assertThat(sorted(df[0].select("id", "k", "s"))).isEqualTo(sorted(data));
        assertThat(sorted(df[1])).isEqualTo(sorted(data));

        spark.conf().set(RECORDED, "false");
        assertThat(calls(fresh(api), () -> spark.read().json(json)).get(CallType.GET)).as("inference reads every part")
                .isEqualTo(5L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void anAppendWithANewColumnReadsAsMergeSchemaAndAnOlderGenerationAsItWas(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = path(api, "evolving");
        spark.range(0, 20, 1, 2).selectExpr("id", "CAST(id AS STRING) AS s").write().parquet(path);
        spark.range(20, 30, 1, 1).selectExpr("id", "CAST(id AS STRING) AS s", "named_struct('x', id) AS added")
                .write().mode("append").parquet(path);
        assertThat(manifest(fs, path).datasetSchema().since()).isEqualTo(2);

        Dataset<Row> read = spark.read().parquet(path);
        assertThat(read.schema().simpleString()).isEqualTo("struct<id:bigint,s:string,added:struct<x:bigint>>");
        spark.conf().set(RECORDED, "false");
        Dataset<Row> merged = spark.read().option("mergeSchema", "true").parquet(path);
        assertThat(read.schema()).isEqualTo(merged.schema());
        assertThat(sorted(read)).isEqualTo(sorted(merged)).hasSize(30);
        spark.conf().unset(RECORDED);
        assertThat(read.where("added IS NULL").count()).isEqualTo(20);

        Dataset<Row> first = spark.read().option("versionAsOf", "1").parquet(path);
        assertThat(first.schema().simpleString()).isEqualTo("struct<id:bigint,s:string>");
        assertThat(first.count()).isEqualTo(20);
    }

    @Test
    void catalogTablesReadThroughTheManifestWithThePathsRowsAndCallsAndSkipping() throws Exception {
        for (String api : List.of("s3", "swift")) {
            String path = path(api, "table");
            spark.range(0, 400, 1, 4).selectExpr("id", "CAST(id % 2 AS INT) AS half", "concat('n', id) AS name")
                    .write().partitionBy("half").parquet(path);
            String saved = path(api, "saved");
            spark.range(0, 100, 1, 4).selectExpr("id", "concat('n', id) AS name").write().option("path", saved)
                    .saveAsTable("saved_" + api);
            spark.sql("CREATE TABLE located_" + api + " USING parquet LOCATION '" + path + "'");
            try {
                String where = "id BETWEEN 110 AND 130 AND half = 0";
                Dataset<Row> table = spark.table("located_" + api).where(where);
                assertThat(PlanFileIndexes.of(table)).isInstanceOf(ManifestFileIndex.class);
                List<String> tableRows = new ArrayList<>();
                List<String> pathRows = new ArrayList<>();
                List<ScanReport> reports = new ArrayList<>();
                Map<CallType, Long> byTable = calls(fresh(api), () -> {
                    Dataset<Row> q = spark.sql("SELECT * FROM located_" + api + " WHERE " + where);
                    tableRows.addAll(sorted(q));
                    reports.addAll(DataSkipping.reports(q));
                });
                Map<CallType, Long> byPath = calls(fresh(api), () -> {
                    Dataset<Row> q = spark.read().parquet(path).where(where);
                    pathRows.addAll(sorted(q));
                    reports.addAll(DataSkipping.reports(q));
                });
                assertThat(tableRows).isEqualTo(pathRows).hasSize(11);
                assertThat(byTable).as("the same calls as the path read").isEqualTo(byPath)
                        .doesNotContainKey(CallType.LIST);
                assertThat(byTable).as("the manifest and the one part skipping leaves")
                        .isEqualTo(Map.of(CallType.GET, 2L));
                assertThat(reports).hasSize(2).allSatisfy(r -> {
                    assertThat(r.objectsListed()).as("half = 0: 4 parts").isEqualTo(4);
                    assertThat(r.objectsSkipped()).as("ids 100-199 are one task's").isEqualTo(3);
                });

                Dataset<Row> savedTable = spark.table("saved_" + api);
                assertThat(PlanFileIndexes.of(savedTable)).isInstanceOf(ManifestFileIndex.class);
                assertThat(sorted(savedTable)).isEqualTo(sorted(spark.read().parquet(saved))).hasSize(100);
                spark.sql("INSERT INTO saved_" + api + " SELECT 1000, 'n1000'");
                assertThat(spark.table("saved_" + api).count()).isEqualTo(101);
            } finally {
                spark.sql("DROP TABLE IF EXISTS located_" + api);
                spark.sql("DROP TABLE IF EXISTS saved_" + api);
            }
        }
    }
}
