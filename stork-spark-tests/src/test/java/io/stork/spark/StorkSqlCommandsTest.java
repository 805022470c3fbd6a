package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.Changes;
import io.stork.manifest.GenerationInfo;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.spark.dataset.StorkDataset;
import io.stork.store.CallType;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Stork's SQL commands, metadata tables and time travel, and the {@link StorkDataset} API they run, over
 * the memory store: each result compared with the manifest (which is what the dataset tool prints), every
 * bad input refused with one line. A dataset of three generations: create (2 parts), append (1), overwrite
 * (1); then a restore and a vacuum.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StorkSqlCommandsTest {

    private static final String BUCKET = "unit-sql-api";
    private static final String PATH = "stork://" + BUCKET + "/events";
    private static SparkSession spark;

    @BeforeAll
    static void writeThreeGenerations() {
        spark = MemorySpark.session("stork-sql-commands", Map.of("spark.stork.layout.history.flushInterval", "1h"));
        spark.range(0, 10).selectExpr("id", "id % 3 AS k").repartition(2).write().parquet(PATH);
        spark.range(10, 15).selectExpr("id", "id % 3 AS k").coalesce(1).write().mode(SaveMode.Append).parquet(PATH);
        spark.range(100, 103).selectExpr("id", "id % 3 AS k").coalesce(1).write().mode(SaveMode.Overwrite)
                .parquet(PATH);
    }

    @AfterAll
    static void stop() {
        MemorySpark.stop(spark);
    }

    private static Manifest manifest() throws Exception {
        return MemorySpark.manifest(spark, PATH);
    }

    private static List<Row> sql(String statement) {
        return spark.sql(statement).collectAsList();
    }

    @Test
    @Order(1)
    void describeHistoryIsTheManifestsHistoryNewestFirstThroughSqlAndTheApi() throws Exception {
        Manifest m = manifest();
        List<GenerationInfo> history = m.history().stream()
                .sorted(Comparator.comparingLong(GenerationInfo::generation).reversed()).toList();
        List<Row> rows = sql("DESCRIBE HISTORY stork.`" + PATH + "`");
        assertThat(rows).hasSize(3);
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            GenerationInfo h = history.get(i);
            assertThat(r.getLong(0)).isEqualTo(h.generation());
            assertThat(r.getTimestamp(1).toInstant()).isEqualTo(h.committedAt().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
            assertThat(r.getString(2)).isEqualTo(h.operation().jsonName());
            assertThat(r.getString(3)).isEqualTo(h.jobId());
            assertThat(r.getInt(4)).isEqualTo(h.partCount());
            assertThat(r.getLong(5)).isEqualTo(h.bytes());
            assertThat(r.getInt(7)).isEqualTo(h.added());
            assertThat(r.getInt(8)).isEqualTo(h.removed());
        }
        assertThat(rows.stream().map(r -> r.getString(2)).toList()).containsExactly("overwrite", "append", "create");
        // The overwrite dropped the three parts of generations 1 and 2: their bytes, from the removed parts.
        long dropped = m.removed().stream().mapToLong(r -> r.part().length()).sum();
        assertThat(rows.get(0).getLong(10)).isEqualTo(dropped);
        assertThat(rows.get(0).getLong(9)).isEqualTo(m.totalLength());
        assertThat(rows.get(0).getString(11)).isEqualTo(m.writer());
        assertThat(StorkDataset.forPath(spark, PATH).history().collectAsList()).isEqualTo(rows);
        assertThat(sql("DESC HISTORY parquet.`" + PATH + "` LIMIT 1;")).containsExactly(rows.get(0));
        assertThat(sql("DESCRIBE HISTORY '" + PATH + "'")).isEqualTo(rows);
    }

    @Test
    @Order(2)
    void describeDetailSaysFormatGenerationPartsBytesAndSchema() throws Exception {
        Manifest m = manifest();
        Row d = sql("DESCRIBE DETAIL stork.`" + PATH + "`").get(0);
        assertThat(d.getString(d.fieldIndex("format"))).isEqualTo("parquet");
        assertThat(d.getString(d.fieldIndex("location"))).isEqualTo(PATH);
        assertThat(d.getLong(d.fieldIndex("generation"))).isEqualTo(3);
        assertThat(d.getInt(d.fieldIndex("parts"))).isEqualTo(m.parts().size());
        assertThat(d.getLong(d.fieldIndex("bytes"))).isEqualTo(m.totalLength());
        assertThat(d.getLong(d.fieldIndex("records"))).isEqualTo(3);
        assertThat(d.getString(d.fieldIndex("schema"))).isEqualTo("id BIGINT,k BIGINT");
        assertThat(d.getInt(d.fieldIndex("parts_with_statistics")))
                .isEqualTo((int) m.parts().stream().filter(ManifestPart::hasStatistics).count());
        assertThat(d.getLong(d.fieldIndex("restorable_from"))).isEqualTo(m.restorableFrom());
        assertThat(StorkDataset.forPath(spark, PATH).detail().collectAsList()).containsExactly(d);
    }

    @Test
    @Order(3)
    void filesAreAGenerationsPartsWithSizesEtagsAndStatistics() throws Exception {
        Manifest m = manifest();
        List<Row> current = sql("SELECT * FROM stork_files('" + PATH + "')");
        assertThat(current).extracting(r -> r.getString(0), r -> r.getLong(1), r -> r.getString(2))
                .containsExactlyElementsOf(m.parts().stream()
                        .map(p -> org.assertj.core.groups.Tuple.tuple(p.path(), p.length(), p.etag())).toList());
        Row part = current.get(0);
        assertThat(part.getLong(part.fieldIndex("records"))).isEqualTo(3);
        Map<String, Row> stats = part.getJavaMap(part.fieldIndex("statistics"));
        assertThat(stats.get("id").getString(1)).isEqualTo("100");
        assertThat(stats.get("id").getString(2)).isEqualTo("102");
        List<Row> first = StorkDataset.forPath(spark, PATH).files(1).collectAsList();
        assertThat(first).extracting(r -> r.getString(0)).containsExactlyInAnyOrderElementsOf(
                m.partsAt(1).stream().map(ManifestPart::path).toList());
        assertThat(sql("SELECT count(*) FROM stork_files('" + PATH + "', 2) WHERE added_in = 2").get(0).getLong(0))
                .isEqualTo(1);
    }

    @Test
    @Order(4)
    void changesAreTheManifestsChangesInCommitOrder() throws Exception {
        Changes expected = Changes.between(manifest(), 1, 3);
        List<Row> rows = sql("SELECT generation, change, path, size FROM stork_changes('" + PATH + "', 1, 3)");
        assertThat(rows).extracting(r -> r.getLong(0), r -> r.getString(1), r -> r.getString(2), r -> r.getLong(3))
                .containsExactlyElementsOf(expected.inCommitOrder().stream().map(e -> org.assertj.core.groups.Tuple
                        .tuple(e.generation(), e.added() ? "added" : "removed", e.part().path(), e.part().length()))
                        .toList());
        assertThat(rows).hasSize(1 + 3 + 1); // generation 2 added one; 3 removed three and added one
        assertThat(StorkDataset.forPath(spark, PATH).changes(1).collectAsList()).isEqualTo(
                spark.sql("SELECT * FROM stork_changes('" + PATH + "', 1)").collectAsList());
    }

    @Test
    @Order(5)
    void versionAndTimestampAsOfReadPastGenerations() throws Exception {
        assertThat(sql("SELECT count(*) FROM parquet.`" + PATH + "` VERSION AS OF 1").get(0).getLong(0)).isEqualTo(10);
        assertThat(sql("SELECT count(*) FROM parquet.`" + PATH + "` VERSION AS OF 2").get(0).getLong(0)).isEqualTo(15);
        assertThat(sql("SELECT count(*) FROM parquet.`" + PATH + "`").get(0).getLong(0)).isEqualTo(3);
        // A time just after generation 2's commit (time travel reads milliseconds), before generation 3's.
        String second = manifest().info(2).orElseThrow().committedAt().plusMillis(1).toString();
        assertThat(sql("SELECT max(id) FROM parquet.`" + PATH + "` TIMESTAMP AS OF '" + second + "'").get(0)
                .getLong(0)).isEqualTo(14);
        assertThat(sql("SELECT sum(id) FROM stork.`" + PATH + "` VERSION AS OF 1 AS t WHERE t.k = 0").get(0)
                .getLong(0)).isEqualTo(0 + 3 + 6 + 9);
        assertThat(sql("SELECT count(*) FROM stork.`" + PATH + "`").get(0).getLong(0)).isEqualTo(3);
    }

    @Test
    @Order(6)
    void aCatalogTableOnStorkTakesTheCommandsAndTimeTravel() {
        spark.sql("CREATE TABLE events USING parquet LOCATION '" + PATH + "'");
        try {
            assertThat(sql("DESCRIBE HISTORY events")).isEqualTo(sql("DESCRIBE HISTORY stork.`" + PATH + "`"));
            assertThat(sql("SELECT * FROM stork_history('default.events')")).hasSize(3);
            assertThat(sql("SELECT count(*) FROM events VERSION AS OF 2").get(0).getLong(0)).isEqualTo(15);
            assertThat(sql("SELECT count(*) FROM events VERSION AS OF 1 e WHERE e.k = 1").get(0).getLong(0))
                    .isEqualTo(3);
            assertThat(sql("DESCRIBE DETAIL spark_catalog.default.events").get(0).getString(0)).isEqualTo("parquet");
        } finally {
            spark.sql("DROP TABLE events");
        }
    }

    @Test
    @Order(7)
    void restoreNamesAnEarlierGenerationsPartsAgain() throws Exception {
        Manifest before = manifest();
        Row r = sql("RESTORE TABLE stork.`" + PATH + "` TO VERSION AS OF 1").get(0);
        Manifest after = manifest();
        assertThat(after.generation()).isEqualTo(4);
        assertThat(after.operation()).isEqualTo(Manifest.Operation.RESTORE);
        assertThat(after.parts()).extracting(ManifestPart::path).containsExactlyInAnyOrderElementsOf(
                before.partsAt(1).stream().map(ManifestPart::path).toList());
        assertThat(r.getLong(0)).isEqualTo(1);
        assertThat(r.getLong(1)).isEqualTo(4);
        assertThat(r.getInt(2)).isEqualTo(2);
        assertThat(r.getLong(3)).isEqualTo(after.totalLength());
        assertThat(sql("SELECT count(*) FROM parquet.`" + PATH + "`").get(0).getLong(0)).isEqualTo(10);
        String third = after.info(3).orElseThrow().committedAt().toString();
        assertThat(sql("RESTORE parquet.`" + PATH + "` TIMESTAMP AS OF '" + third + "'").get(0).getLong(0))
                .isEqualTo(3);
        assertThat(sql("SELECT count(*) FROM parquet.`" + PATH + "`").get(0).getLong(0)).isEqualTo(3);
    }

    @Test
    @Order(8)
    void vacuumKeepsTheFloorAndDeletesWhatADryRunListed() throws Exception {
        assertThatThrownBy(() -> sql("VACUUM stork.`" + PATH + "` RETAIN 0 HOURS")).hasMessageContaining(
                "under the maintenance floor").satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        // Without RETAIN, the dataset's retention (7 days): the dropped parts are kept, readable by time travel.
        assertThat(sql("VACUUM stork.`" + PATH + "` DRY RUN")).noneMatch(r -> r.getString(2).equals("dropped-part"));
        spark.conf().set("fs.stork.maintenance.retention.check", "false");
        try {
            Manifest m = manifest();
            List<Row> dry = sql("VACUUM stork.`" + PATH + "` RETAIN 0 HOURS DRY RUN");
            // Generation 5 names generation 3's part: the three parts of generations 1 and 2 were dropped by it.
            List<String> dropped = dry.stream().filter(r -> r.getString(2).equals("dropped-part"))
                    .map(r -> r.getString(0)).toList();
            assertThat(dropped).hasSize(3).allSatisfy(p -> assertThat(m.parts().stream().map(ManifestPart::path)
                    .noneMatch(p::endsWith)).isTrue());
            assertThat(dry).allSatisfy(r -> assertThat(r.getBoolean(3)).isFalse());
            FileSystem fs = new Path(PATH).getFileSystem(spark.sparkContext().hadoopConfiguration());
            for (String p : dropped) {
                assertThat(fs.getFileStatus(new Path(p)).getLen()).isPositive(); // a dry run deletes nothing
            }
            Map<CallType, Long> calls = MemorySpark.calls(BUCKET, () -> {
                List<Row> done = sql("VACUUM stork.`" + PATH + "` RETAIN 0 HOURS");
                assertThat(done).extracting(r -> r.getString(0)).containsExactlyInAnyOrderElementsOf(
                        dry.stream().map(r -> r.getString(0)).toList());
                assertThat(done).allSatisfy(r -> assertThat(r.getBoolean(3)).isTrue());
            });
            assertThat(calls.getOrDefault(CallType.DELETE, 0L) + calls.getOrDefault(CallType.BULK_DELETE, 0L))
                    .isPositive();
            FileSystem raw = rawFileSystem();
            for (String p : dropped) {
                assertThat(raw.exists(new Path(p))).as(p).isFalse();
            }
            assertThat(sql("SELECT count(*) FROM parquet.`" + PATH + "`").get(0).getLong(0)).isEqualTo(3);
            assertThat(sql("VACUUM stork.`" + PATH + "` RETAIN 0 HOURS DRY RUN")).isEmpty();
        } finally {
            spark.conf().unset("fs.stork.maintenance.retention.check");
        }
    }

    private static FileSystem rawFileSystem() throws Exception {
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(
                spark.sparkContext().hadoopConfiguration());
        conf.setBoolean("fs.stork.read.raw", true);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        return FileSystem.newInstance(new Path(PATH).toUri(), conf);
    }

    @Test
    @Order(9)
    void badInputsAreRefusedWithOneLine() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("VACUUM", "VACUUM: expected a dataset");
        cases.put("VACUUM stork.`" + PATH + "` RETAIN 1 DAYS", "expected HOURS after RETAIN 1 but found 'DAYS'");
        cases.put("VACUUM stork.`" + PATH + "` RETAIN -1 HOURS", "RETAIN takes a number of hours, 0 or more, not -1");
        cases.put("VACUUM stork.`" + PATH + "` DRY", "VACUUM: expected RUN at the end of the statement");
        cases.put("VACUUM stork.`" + PATH + "` now", "VACUUM: unexpected 'now'");
        cases.put("RESTORE stork.`" + PATH + "`", "RESTORE: expected TO VERSION AS OF n or TO TIMESTAMP AS OF");
        cases.put("RESTORE stork.`" + PATH + "` TO VERSION AS OF 0", "takes a whole number from 1, not 0");
        cases.put("RESTORE stork.`" + PATH + "` TO VERSION AS OF 99", "generation 99");
        cases.put("RESTORE stork.`" + PATH + "` TO TIMESTAMP AS OF 'yesterday'", "not 'yesterday'");
        cases.put("RESTORE stork.`" + PATH + "` TO TIMESTAMP AS OF '2001-01-01 00:00:00'", "no generation of");
        cases.put("DESCRIBE HISTORY parquet.`s3a://b/t`", "not a Stork dataset: 's3a://b/t'");
        cases.put("DESCRIBE HISTORY stork.`stork://" + BUCKET + "/nothing`", "no Stork dataset at stork://"
                + BUCKET + "/nothing");
        cases.put("DESCRIBE DETAIL no_such_table", "no table no_such_table in the session catalog");
        cases.put("DESCRIBE HISTORY a.b.c.d", "only the session catalog's tables");
        cases.put("SELECT * FROM parquet.`" + PATH + "` VERSION AS OF 99", "generation 99");
        cases.put("SELECT * FROM parquet.`" + PATH + "` VERSION AS OF 'x'", "versionAsOf must be a generation");
        cases.put("SELECT * FROM parquet.`" + PATH + "` TIMESTAMP AS OF current_timestamp()",
                "TIMESTAMP AS OF on a Stork dataset takes a literal time");
        cases.put("SELECT * FROM parquet.`file:/tmp/x` VERSION AS OF 1", "not of 'file:/tmp/x'");
        cases.put("SELECT * FROM stork_nope('" + PATH + "')", "no Stork metadata table stork_nope");
        cases.put("SELECT * FROM stork_files()", "stork_files takes 1 to 2 arguments, not 0");
        cases.put("SELECT * FROM stork_files(1)", "takes the dataset as a string");
        cases.put("SELECT * FROM stork_changes('" + PATH + "', -1)", "takes generations as whole numbers");
        cases.put("SELECT * FROM stork_files('" + PATH + "', 99)", "generation 99 is not available");
        cases.forEach((statement, message) -> assertThatThrownBy(() -> sql(statement)).as(statement)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).as(statement).doesNotContain("\n")));
        assertThatThrownBy(() -> StorkDataset.forPath(spark, "s3a://b/t")).hasMessage(
                "not a Stork dataset: 's3a://b/t' (give a stork://bucket/path URI, or a table whose location is one)");
        assertThatThrownBy(() -> StorkDataset.forPath(spark, PATH + "@v1")).hasMessageContaining("is pinned");
        assertThatThrownBy(() -> StorkDataset.forPath(spark, PATH).vacuum(-2.0, true))
                .hasMessageContaining("RETAIN takes a number of hours");
    }

    @Test
    @Order(10)
    void everyOtherStatementIsSparks() {
        assertThat(sql("SELECT 1 AS one").get(0).getInt(0)).isEqualTo(1);
        spark.sql("CREATE TEMPORARY VIEW history AS SELECT 7 AS x");
        assertThat(sql("DESCRIBE history")).extracting(r -> r.getString(0)).containsExactly("x");
        assertThat(sql("SELECT * FROM range(3)")).hasSize(3);
        Dataset<Row> view = spark.sql("SELECT path FROM stork_files('" + PATH + "')");
        assertThat(view.collectAsList()).hasSize(1);
        // Another table format's commands are its own extension's (Delta Lake's, in a session with both): here,
        // without it, Spark's parser answers, not Stork.
        for (String other : List.of("DESCRIBE HISTORY delta.`" + PATH + "`", "VACUUM delta.`s3a://b/t` RETAIN 1 HOURS",
                "RESTORE TABLE iceberg.`" + PATH + "` TO VERSION AS OF 1", "DESCRIBE HISTORY '/data/events'",
                "SELECT * FROM delta.`" + PATH + "` VERSION AS OF 1")) {
            assertThatThrownBy(() -> sql(other)).as(other)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("Stork").doesNotContain("stork_"));
        }
    }
}
