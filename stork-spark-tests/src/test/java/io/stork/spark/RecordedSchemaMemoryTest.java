package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.manifest.Manifest;
import io.stork.spark.read.ManifestFileIndex;
import io.stork.spark.skipping.DataSkipping;
import io.stork.spark.skipping.ScanReport;
import io.stork.store.CallType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 26 over the memory store: the schema a write records in the manifest replaces the driver's footer read
 * (Parquet, ORC) and the pass over the data (CSV, JSON), with the same rows and types; schema evolution; and
 * catalog tables on a Stork location read through the manifest file index, as their path is.
 */
class RecordedSchemaMemoryTest {

    private static final String BUCKET = "unit-schema";
    private static final String OFF = "spark.stork.read.recordedSchema";
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        spark = MemorySpark.session("stork-recorded-schema", Map.of("spark.stork.layout.history.flushInterval", "1h"));
    }

    @AfterAll
    static void stopSpark() {
        MemorySpark.stop(spark);
    }

    @AfterEach
    void recordedSchemaOn() {
        spark.conf().unset(OFF);
    }

    private static String path(String name) {
        return "stork://" + BUCKET + "/" + name;
    }

    /** The rows and schema of {@code read} with the recorded schema and without it (inferred as by Spark). */
    private static void sameWithAndWithout(java.util.function.Supplier<Dataset<Row>> read) {
        Dataset<Row> with = read.get();
        spark.conf().set(OFF, "false");
        Dataset<Row> without = read.get();
        spark.conf().unset(OFF);
        assertThat(with.schema()).isEqualTo(without.schema());
        assertThat(MemorySpark.sorted(with.collectAsList())).isEqualTo(MemorySpark.sorted(without.collectAsList()))
                .isNotEmpty();
    }

    @Test
    void aOneRowParquetReadIsTheManifestAndOneGetOfThePart() throws Exception {
        String path = path("one-row");
        spark.range(1).selectExpr("id", "CAST(id AS STRING) AS s").coalesce(1).write().parquet(path);
        Manifest manifest = MemorySpark.manifest(spark, path);
        assertThat(manifest.schema()).contains("\"name\":\"id\"").contains("\"name\":\"s\"");
        assertThat(manifest.datasetSchema().format()).isEqualTo("parquet");

        List<Row>[] rows = new List[1];
        assertThat(MemorySpark.calls(BUCKET, () -> rows[0] = spark.read().parquet(path).collectAsList()))
                .as("the manifest, then the part: no footer read on the driver").isEqualTo(Map.of(CallType.GET, 2L));
        assertThat(rows[0]).hasSize(1);
        spark.conf().set(OFF, "false");
        assertThat(MemorySpark.calls(BUCKET, () -> spark.read().parquet(path).collectAsList()))
                .as("inferring: the driver reads the footer first").isEqualTo(Map.of(CallType.GET, 3L));
    }

    @Test
    void recordedAndInferredSchemasGiveTheSameRowsAndTypes() {
        Dataset<Row> data = spark.range(0, 60, 1, 3).selectExpr("id", "CAST(id % 3 AS INT) AS k",
                "CASE WHEN id % 5 = 0 THEN NULL ELSE concat('v', id) END AS s", "CAST(id AS DOUBLE) / 7 AS d",
                "array(id, id + 1) AS arr", "named_struct('x', id, 'y', CAST(id AS STRING)) AS st",
                "CAST(id AS DECIMAL(12, 2)) AS dec", "TIMESTAMP '2026-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id) AS ts");
        // Non-nullable columns as written; the read makes every column nullable either way.
        data.write().partitionBy("k").parquet(path("typed-parquet"));
        sameWithAndWithout(() -> spark.read().parquet(path("typed-parquet")));
        sameWithAndWithout(() -> spark.read().parquet(path("typed-parquet")).where("k = 1 AND id > 10"));
        data.write().orc(path("typed-orc"));
        sameWithAndWithout(() -> spark.read().orc(path("typed-orc")));
        sameWithAndWithout(() -> spark.sql("SELECT * FROM parquet.`" + path("typed-parquet") + "`"));
        assertThat(PlanFileIndexes.of(spark.read().parquet(path("typed-parquet")))).isInstanceOf(ManifestFileIndex.class);
    }

    @Test
    void csvAndJsonReadNoDataToPlanAndGetTheWrittenTypes() throws Exception {
        Dataset<Row> data = spark.range(0, 30, 1, 3).selectExpr("id", "CAST(id AS INT) AS i", "concat('v', id) AS s");
        data.write().option("header", "true").csv(path("csv"));
        data.write().json(path("json"));

        Dataset<Row>[] csv = new Dataset[1];
        assertThat(MemorySpark.calls(BUCKET, () -> csv[0] = spark.read().option("header", "true").csv(path("csv"))))
                .as("the manifest only: no part read to infer").isEqualTo(Map.of(CallType.GET, 1L));
        assertThat(csv[0].schema().simpleString()).isEqualTo("struct<id:bigint,i:int,s:string>");
        Dataset<Row>[] json = new Dataset[1];
        assertThat(MemorySpark.calls(BUCKET, () -> json[0] = spark.read().json(path("json"))))
                .isEqualTo(Map.of(CallType.GET, 1L));
        assertThat(json[0].schema().simpleString()).isEqualTo("struct<id:bigint,i:int,s:string>");
        assertThat(MemorySpark.sorted(csv[0].collectAsList())).isEqualTo(MemorySpark.sorted(data.collectAsList()));
        assertThat(MemorySpark.sorted(json[0].collectAsList())).isEqualTo(MemorySpark.sorted(data.collectAsList()));

        // Without it, Spark's inference reads every part (CSV: strings unless inferSchema; JSON: sorted names).
        spark.conf().set(OFF, "false");
        assertThat(MemorySpark.calls(BUCKET, () -> spark.read().json(path("json"))).get(CallType.GET))
                .isEqualTo(4L);
        assertThat(spark.read().option("header", "true").csv(path("csv")).schema().simpleString())
                .isEqualTo("struct<id:string,i:string,s:string>");
        spark.conf().unset(OFF);
        // A user's schema still wins; a read option turns the recorded schema off for one read.
        assertThat(spark.read().schema("id STRING, i STRING, s STRING").json(path("json")).schema().simpleString())
                .isEqualTo("struct<id:string,i:string,s:string>");
        assertThat(spark.read().option("stork.recordedSchema", "false").json(path("json")).schema().simpleString())
                .isEqualTo("struct<i:bigint,id:bigint,s:string>");
        // Another format than the parts were written in infers.
        assertThat(spark.read().text(path("json")).schema().simpleString()).isEqualTo("struct<value:string>");
    }

    @Test
    void anAppendWithANewColumnReadsAsParquetsMergeSchemaAndTimeTravelKeepsTheOldSchema() throws Exception {
        String path = path("evolving");
        spark.range(0, 10, 1, 2).selectExpr("id", "CAST(id AS STRING) AS s").write().parquet(path);
        spark.range(10, 20, 1, 2).selectExpr("id", "CAST(id AS STRING) AS s", "id * 2 AS added")
                .write().mode("append").parquet(path);
        Manifest manifest = MemorySpark.manifest(spark, path);
        assertThat(manifest.datasetSchema().since()).isEqualTo(2);

        Dataset<Row> read = spark.read().parquet(path);
        assertThat(read.schema().simpleString()).isEqualTo("struct<id:bigint,s:string,added:bigint>");
        assertThat(read.where("added IS NULL").count()).isEqualTo(10);
        spark.conf().set(OFF, "false");
        Dataset<Row> merged = spark.read().option("mergeSchema", "true").parquet(path);
        spark.conf().unset(OFF);
        assertThat(read.schema()).isEqualTo(merged.schema());
        assertThat(MemorySpark.sorted(read.collectAsList())).isEqualTo(MemorySpark.sorted(merged.collectAsList()));

        Dataset<Row> first = spark.read().option("versionAsOf", "1").parquet(path);
        assertThat(first.schema().simpleString()).as("generation 1, inferred from its parts")
                .isEqualTo("struct<id:bigint,s:string>");
        assertThat(first.count()).isEqualTo(10);

        spark.range(3).selectExpr("CAST(id AS STRING) AS id").write().mode("append").parquet(path);
        assertThat(MemorySpark.manifest(spark, path).schema()).as("id changed type: no schema reads every part")
                .isNull();
    }

    @Test
    void catalogTablesOnAStorkLocationReadThroughTheManifestAsTheirPathDoes() throws Exception {
        String path = path("table");
        spark.range(0, 400, 1, 4).selectExpr("id", "CAST(id % 4 AS INT) AS k", "concat('n', id) AS name")
                .write().partitionBy("k").parquet(path);
        spark.sql("CREATE TABLE located USING parquet LOCATION '" + path + "'");
        spark.range(0, 40, 1, 4).selectExpr("id", "concat('n', id) AS name").write().option("path", path("saved"))
                .saveAsTable("saved");
        try {
            Dataset<Row> byTable = spark.table("located").where("k = 1 AND id < 50");
            Dataset<Row> byPath = spark.read().parquet(path).where("k = 1 AND id < 50");
            assertThat(PlanFileIndexes.of(byTable)).isInstanceOf(ManifestFileIndex.class);
            assertThat(byTable.schema()).isEqualTo(byPath.schema());
            List<String> tableRows = new ArrayList<>();
            List<String> pathRows = new ArrayList<>();
            Map<CallType, Long> tableCalls = MemorySpark.calls(BUCKET, () -> tableRows.addAll(
                    MemorySpark.sorted(spark.table("located").where("k = 1 AND id < 50").collectAsList())));
            Map<CallType, Long> pathCalls = MemorySpark.calls(BUCKET, () -> pathRows.addAll(
                    MemorySpark.sorted(spark.read().parquet(path).where("k = 1 AND id < 50").collectAsList())));
            assertThat(tableRows).isEqualTo(pathRows).hasSize(13);
            assertThat(tableCalls).as("the same calls as the path read").isEqualTo(pathCalls);
            assertThat(tableCalls).doesNotContainKey(CallType.LIST);

            Dataset<Row> q = spark.sql("SELECT * FROM default.located WHERE id = 7");
            assertThat(q.collectAsList()).hasSize(1);
            ScanReport report = DataSkipping.reports(q).get(0);
            assertThat(report.objectsListed()).as("the parts of the 4 partitions").isEqualTo(16);
            // Each task wrote ids 100t..100t+99 into each partition: only task 0's 4 parts can hold id 7.
            assertThat(report.objectsSkipped()).as("statistics rule out the other tasks' parts").isEqualTo(12);
            Dataset<Row> byPathQuery = spark.read().parquet(path).where("id = 7");
            byPathQuery.collectAsList();
            assertThat(DataSkipping.reports(byPathQuery).get(0).objectsSkipped()).isEqualTo(12);

            Dataset<Row> saved = spark.sql("SELECT count(*) FROM spark_catalog.default.saved");
            assertThat(PlanFileIndexes.of(spark.table("saved"))).isInstanceOf(ManifestFileIndex.class);
            assertThat(saved.collectAsList().get(0).getLong(0)).isEqualTo(40);
            spark.sql("INSERT INTO saved SELECT 100, 'n100'");
            assertThat(spark.table("saved").count()).as("an insert commits a new generation, read next").isEqualTo(41);
            assertThat(MemorySpark.manifest(spark, path("saved")).generation()).isEqualTo(2);

            spark.range(1).selectExpr("id").createOrReplaceTempView("located");
            assertThat(spark.table("located").count()).as("a temporary view comes first").isEqualTo(1);
        } finally {
            spark.catalog().dropTempView("located");
            spark.sql("DROP TABLE IF EXISTS located");
            spark.sql("DROP TABLE IF EXISTS saved");
        }
    }
}
