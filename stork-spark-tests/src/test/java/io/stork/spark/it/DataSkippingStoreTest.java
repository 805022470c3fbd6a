package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.spark.skipping.DataSkipping;
import io.stork.spark.skipping.ScanReport;
import io.stork.spark.skipping.SkippingRule;
import io.stork.spark.skipping.SkippingScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Data skipping end to end on the local store: statistics gathered while writing land in the manifest,
 * and a selective query opens only the objects they cannot rule out (GETs counted at the store), with the
 * same rows as without skipping. (A report belongs to the Dataset that ran: {@code count()} runs another.)
 */
class DataSkippingStoreTest {

    private static final String S3_BUCKET = "it-skip-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-skip-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-skipping", S3_BUCKET, SWIFT_BUCKET)
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

    /** 8 parts, each holding one range of ids (1000 rows in all), written in {@code format}. */
    private static String write(String api, String format, String partitionBy) {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        String path = "stork://" + bucket + "/skip-" + format + "-" + UUID.randomUUID().toString().substring(0, 8);
        Dataset<Row> rows = spark.range(0, 1000, 1, 1)
                .selectExpr("id", "CAST(id * 1.5 AS DOUBLE) AS x", "concat('name-', CAST(id AS STRING)) AS name",
                        "CASE WHEN id % 10 = 0 THEN NULL ELSE id % 7 END AS k",
                        "DATE '2026-01-01' + CAST(id AS INT) AS day", "id % 2 AS half")
                .repartitionByRange(8, org.apache.spark.sql.functions.col("id"));
        var writer = rows.write().format(format).option("header", "true");
        if (partitionBy != null) {
            writer = writer.partitionBy(partitionBy);
        }
        writer.save(path);
        return path;
    }

    private static Dataset<Row> read(String format, String path) {
        var reader = spark.read().format(format);
        if (format.equals("csv") || format.equals("json")) {
            reader = reader.schema("id BIGINT, x DOUBLE, name STRING, k BIGINT, day DATE"
                    + (format.equals("csv") ? ", half INT" : ", half BIGINT")).option("header", "true");
        }
        return reader.load(path);
    }

    private static Manifest manifest(String path) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, new Path(path).toUri().getAuthority());
        try (InputStream in = fs.open(new Path(path, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, path);
        }
    }

    /** The dataset's objects a query GETs, by name, counted at the store. */
    private static Set<String> objectsRead(String path, Runnable query) {
        String dataset = path.substring(path.lastIndexOf('/') + 1);
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        query.run();
        return window.counts().entries().stream()
                .filter(e -> e.method().equals("GET") && e.path().contains(dataset + "/")
                        && !e.path().endsWith(PartNames.MANIFEST))
                .map(AccessLogEntry::path)
                .map(p -> p.substring(p.lastIndexOf('/') + 1))
                .collect(Collectors.toSet());
    }

    @ParameterizedTest
    @CsvSource({"s3,parquet", "swift,parquet", "s3,csv", "s3,json", "swift,orc"})
    void aPointLookupOpensOnlyTheObjectThatCanHoldIt(String api, String format) throws Exception {
        String path = write(api, format, null);
        Manifest manifest = manifest(path);
        assertThat(manifest.parts()).hasSize(8).allSatisfy(p -> assertThat(p.statsJson()).contains("\"id\""));

        Dataset<Row> query = read(format, path).where("id = 637");
        List<Row> rows = new java.util.ArrayList<>();
        Set<String> opened = objectsRead(path, () -> rows.addAll(query.collectAsList()));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).<String>getAs("name")).isEqualTo("name-637");
        assertThat(opened).as("objects GET'd at the store").hasSize(1);
        ScanReport report = DataSkipping.reports(query).get(0);
        assertThat(report.objectsListed()).isEqualTo(8);
        assertThat(report.objectsRead()).isEqualTo(1);
        assertThat(report.withStatistics()).isEqualTo(8);
        assertThat(report.bytesRead()).isLessThan(report.bytesListed() / 4);
        if (format.equals("parquet")) {
            // The writer saw each footer and the page indexes before it: the reader's first GET near the end
            // fetches exactly them.
            assertThat(manifest.parts()).allSatisfy(p -> assertThat(p.tail()).isBetween(9, (int) p.length()));
            // These parts are small enough to be fetched whole; with that off, Parquet's own reader reading the
            // footer and every column's page indexes costs one GET of exactly the tail the manifest names.
            String name = opened.iterator().next();
            ManifestPart part = manifest.parts().stream().filter(p -> p.path().endsWith(name)).findFirst().orElseThrow();
            org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(
                    spark.sparkContext().hadoopConfiguration());
            conf.set("fs.stork.read.whole.object.size", "0");
            Path partPath = new Path(path + "/" + part.path());
            try (org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.newInstance(
                    java.net.URI.create(path), conf)) {
                // As Spark does: the dataset listed (from its manifest), then each file opened with its status.
                org.apache.hadoop.fs.FileStatus listed = java.util.Arrays.stream(fs.listStatus(new Path(path)))
                        .filter(st -> st.getPath().equals(fs.makeQualified(partPath))).findFirst().orElseThrow();
                AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
                int indexes = 0;
                long footer;
                // Parquet's own reader over this file system (HadoopInputFile would take the session's cached one).
                org.apache.parquet.io.InputFile file = new org.apache.parquet.io.InputFile() {
                    @Override
                    public long getLength() {
                        return listed.getLen();
                    }

                    @Override
                    public org.apache.parquet.io.SeekableInputStream newStream() throws java.io.IOException {
                        try {
                            return org.apache.parquet.hadoop.util.HadoopStreams.wrap(
                                    fs.openFile(listed.getPath()).withFileStatus(listed).build().get());
                        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                            throw new java.io.IOException(e);
                        }
                    }
                };
                try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(file)) {
                    footer = reader.getFooter().getBlocks().size();
                    for (var block : reader.getFooter().getBlocks()) {
                        for (var column : block.getColumns()) {
                            indexes += reader.readColumnIndex(column) != null ? 1 : 0;
                            indexes += reader.readOffsetIndex(column) != null ? 1 : 0;
                        }
                    }
                }
                assertThat(footer).isPositive();
                assertThat(indexes).as("page indexes read").isGreaterThan(2);
                // (A ranged GET answers 206; a whole-object GET of the query before may still be arriving in the log.)
                assertThat(window.counts().entries()).filteredOn(e -> e.method().equals("GET") && e.path().endsWith(name)
                        && e.status() == 206).singleElement().satisfies(e -> assertThat(e.bytesSent()).isEqualTo(part.tail()));
            }
        } else {
            assertThat(manifest.parts()).allSatisfy(p -> assertThat(p.tail()).isZero());
        }

        spark.conf().set(SkippingRule.ENABLED, "false");
        try {
            Dataset<Row> unskipped = read(format, path).where("id = 637");
            Set<String> all = objectsRead(path, () -> assertThat(unskipped.collectAsList()).isEqualTo(rows));
            assertThat(all).as("without skipping every object is opened").hasSize(8);
        } finally {
            spark.conf().unset(SkippingRule.ENABLED);
        }
    }

    @Test
    void skippingCountersAreSqlMetricsOfTheScanShownInTheUiAndInExplain() throws Exception {
        String path = write("s3", "parquet", null);
        Dataset<Row> query = read("parquet", path).where("id = 637");
        assertThat(query.collectAsList()).hasSize(1);
        SparkPlan plan = query.queryExecution().executedPlan();
        SkippingScanExec node = find(plan).orElseThrow(() -> new AssertionError("no StorkDataSkipping node in\n" + plan));
        ScanReport report = DataSkipping.reports(query).get(0);
        assertThat(node.metrics().apply("objectsConsidered").value()).isEqualTo(8);
        assertThat(node.metrics().apply("objectsSkipped").value()).isEqualTo(7);
        assertThat(node.metrics().apply("objectsWithStatistics").value()).isEqualTo(8);
        assertThat(node.metrics().apply("bytesConsidered").value()).isEqualTo(report.bytesListed());
        assertThat(node.metrics().apply("bytesSkipped").value()).isEqualTo(report.bytesListed() - report.bytesRead());
        // The UI shows what the SQL status store holds for the execution.
        org.apache.spark.sql.execution.ui.SQLAppStatusStore status = spark.sharedState().statusStore();
        org.apache.spark.sql.execution.ui.SQLExecutionUIData last = scala.jdk.javaapi.CollectionConverters
                .asJava(status.executionsList()).stream()
                .max(java.util.Comparator.comparingLong(org.apache.spark.sql.execution.ui.SQLExecutionUIData::executionId))
                .orElseThrow();
        java.util.Map<Object, String> values = scala.jdk.javaapi.CollectionConverters.asJava(
                status.executionMetrics(last.executionId()));
        assertThat(values.get(node.metrics().apply("objectsSkipped").id())).isEqualTo("7");
        assertThat(last.physicalPlanDescription()).contains("StorkDataSkipping");
        String explained = plan.toString();
        assertThat(explained).contains("StorkDataSkipping [1 of 8 objects read, 7 skipped by statistics (8 had statistics)");
        assertThat(query.queryExecution().explainString(org.apache.spark.sql.execution.ExplainMode.fromString("formatted")))
                .contains("StorkDataSkipping [1 of 8 objects read");
        // Results and Spark's own scan metrics are unchanged by the node: 1 file read.
        assertThat(node.scan().metrics().apply("numFiles").value()).isEqualTo(1);
    }

    private static java.util.Optional<SkippingScanExec> find(SparkPlan plan) {
        if (plan instanceof SkippingScanExec node) {
            return java.util.Optional.of(node);
        }
        if (plan instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec adaptive) {
            return find(adaptive.executedPlan());
        }
        for (SparkPlan child : scala.jdk.javaapi.CollectionConverters.asJava(plan.children())) {
            java.util.Optional<SkippingScanExec> found = find(child);
            if (found.isPresent()) {
                return found;
            }
        }
        return java.util.Optional.empty();
    }

    @Test
    void everyPredicateKindSkipsAndReturnsTheSameRows() throws Exception {
        String path = write("s3", "parquet", null);
        String[] filters = {
            "id < 100", "id <= 124", "id > 990", "id >= 875 AND x < 1400", "id BETWEEN 300 AND 310",
            "id IN (5, 505, 995)", "name = 'name-42'", "name LIKE 'name-99%'", "k IS NULL AND id < 50",
            "day = DATE '2026-03-01'", "day > DATE '2028-09-01'", "NOT (id >= 125)", "id < 10 OR id > 989",
            "x > 1498.0", "k = 3 AND id < 125", "id = 5 OR name = 'name-900'", "id <=> 17",
            "length(name) = 6", "id + 1 = 10"
        };
        for (String filter : filters) {
            Dataset<Row> skipped = read("parquet", path).where(filter).orderBy("id");
            List<Row> expected;
            spark.conf().set(SkippingRule.ENABLED, "false");
            try {
                expected = read("parquet", path).where(filter).orderBy("id").collectAsList();
            } finally {
                spark.conf().unset(SkippingRule.ENABLED);
            }
            assertThat(skipped.collectAsList()).as(filter).isEqualTo(expected);
            ScanReport report = DataSkipping.reports(skipped).stream().findFirst().orElse(null);
            if (filter.startsWith("length") || filter.startsWith("id + 1")) {
                assertThat(report == null || report.objectsRead() == 8).as(filter + ": not translatable, all read").isTrue();
            } else {
                assertThat(report).as(filter).isNotNull();
                assertThat(report.objectsRead()).as(filter + ": " + report).isLessThan(8);
            }
        }
    }

    @Test
    void partitionPruningAndSkippingCombine() throws Exception {
        String path = write("s3", "csv", "half");
        Dataset<Row> query = read("csv", path).where("half = 1 AND id = 637");
        Set<String> opened = objectsRead(path, () -> assertThat(query.collectAsList()).hasSize(1));
        assertThat(opened).hasSize(1);
        ScanReport report = DataSkipping.reports(query).get(0);
        assertThat(report.objectsListed()).as("after partition pruning").isEqualTo(8);
        assertThat(report.objectsRead()).isEqualTo(1);
    }

    @Test
    void appendsAndTimeTravelKeepStatisticsWithTheirParts() throws Exception {
        String path = write("s3", "parquet", null);
        spark.range(5000, 5100, 1, 1).selectExpr("id", "CAST(id * 1.5 AS DOUBLE) AS x",
                "concat('name-', CAST(id AS STRING)) AS name", "id % 7 AS k", "DATE '2026-01-01' AS day",
                "id % 2 AS half").write().mode("append").parquet(path);
        Manifest manifest = manifest(path);
        assertThat(manifest.parts()).hasSize(9).allSatisfy(p -> assertThat(p.statsJson()).isNotNull());
        ManifestPart appended = manifest.parts().stream().filter(p -> p.statsJson().contains("\"min\":5000"))
                .findFirst().orElseThrow();
        assertThat(appended.records()).isEqualTo(100);

        Dataset<Row> now = read("parquet", path).where("id >= 5050");
        assertThat(now.collectAsList()).hasSize(50);
        assertThat(DataSkipping.reports(now).get(0).objectsRead()).isEqualTo(1);

        Dataset<Row> before = spark.read().option("versionAsOf", 1).parquet(path).where("id >= 990");
        assertThat(before.collectAsList()).hasSize(10);
        ScanReport report = DataSkipping.reports(before).get(0);
        assertThat(report.objectsListed()).isEqualTo(8);
        assertThat(report.objectsRead()).isEqualTo(1);
    }

    @Test
    void aGeoBoxSkipsByLatitudeAndLongitudeBounds() throws Exception {
        String path = "stork://" + S3_BUCKET + "/skip-geo-" + UUID.randomUUID().toString().substring(0, 8);
        spark.range(0, 2000, 1, 1).selectExpr("id", "CAST(-60 + (id % 40) * 3 AS DOUBLE) AS lat",
                        "CAST(-170 + (id DIV 40) * 7 AS DOUBLE) AS lon")
                .repartitionByRange(10, org.apache.spark.sql.functions.col("lon"), org.apache.spark.sql.functions.col("lat"))
                .write().json(path);
        String schema = "id BIGINT, lat DOUBLE, lon DOUBLE";
        Dataset<Row> udf = spark.read().schema(schema).json(path).where("stork_geo_box(lat, lon, 10.0, 20.0, 5.0, 12.0)");
        Dataset<Row> ranges = spark.read().schema(schema).json(path)
                .where("lat BETWEEN 10.0 AND 20.0 AND lon BETWEEN 5.0 AND 12.0");
        List<Row> viaUdf = udf.orderBy("id").collectAsList();
        assertThat(viaUdf).isNotEmpty().isEqualTo(ranges.orderBy("id").collectAsList());
        assertThat(viaUdf).allSatisfy(r -> {
            assertThat(r.<Double>getAs("lat")).isBetween(10.0, 20.0);
            assertThat(r.<Double>getAs("lon")).isBetween(5.0, 12.0);
        });
        Dataset<Row> q = spark.read().schema(schema).json(path).where("stork_geo_box(lat, lon, 10.0, 20.0, 5.0, 12.0)");
        Set<String> opened = objectsRead(path, () -> assertThat(q.collectAsList()).hasSize(viaUdf.size()));
        ScanReport report = DataSkipping.reports(q).get(0);
        assertThat(report.objectsListed()).isEqualTo(10);
        assertThat(report.objectsRead()).isLessThanOrEqualTo(2);
        assertThat(opened).hasSize((int) report.objectsRead());
    }

    @Test
    void geoBoxesRuleOutAnObjectWhosePointsClusterAroundOtherPlaces() throws Exception {
        String path = "stork://" + S3_BUCKET + "/skip-geo-boxes-" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < 6; i++) {
            // Object i: points around two places on latitude -40 + 10i, one at longitude -100, one at +100.
            var rows = spark.range(0, 400, 1, 1).selectExpr("id + " + (i * 1000) + " AS id",
                    "CAST(-40 + " + (10 * i) + " + (id % 7) * 0.01 AS DOUBLE) AS lat",
                    "CAST(IF(id % 2 = 0, -100.0, 100.0) + (id % 5) * 0.01 AS DOUBLE) AS lon").write();
            // The first write names the pair; the appends use the dataset's setting.
            (i == 0 ? rows.option("stork.skipping.geo", "lat:lon") : rows.mode("append")).parquet(path);
        }
        assertThat(manifest(path).properties()).containsEntry("stork.skipping.geo", "lat:lon");
        assertThat(manifest(path).parts()).hasSize(6).allSatisfy(p -> assertThat(p.statsJson()).contains("\"geo\""));
        Dataset<Row> ocean = spark.read().parquet(path).where("stork_geo_box(lat, lon, -11.0, -9.0, -5.0, 5.0)");
        assertThat(ocean.collectAsList()).isEmpty();
        ScanReport report = DataSkipping.reports(ocean).get(0);
        assertThat(report.objectsListed()).isEqualTo(6);
        assertThat(report.objectsRead()).as("by bounds alone, object 3 spans the box; by its boxes it does not").isZero();
        Dataset<Row> place = spark.read().parquet(path).where("lat BETWEEN -10.5 AND -9.5 AND lon BETWEEN 99.5 AND 100.5");
        Set<String> opened = objectsRead(path, () -> assertThat(place.collectAsList()).hasSize(200));
        assertThat(DataSkipping.reports(place).get(0).objectsRead()).isEqualTo(1);
        assertThat(opened).hasSize(1);
    }

    @Test
    void theDatasetToolPrintsStatisticsPerColumn() throws Exception {
        String path = write("s3", "parquet", null);
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stdout = System.out;
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        int status;
        try {
            status = io.stork.commit.DatasetToolAccess.run(toolArgs("stats", path));
        } finally {
            System.setOut(stdout);
        }
        String out = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        System.err.print(out);
        assertThat(status).isZero();
        assertThat(out).contains("8 parts, 8 with statistics (1,000 rows)");
        assertThat(out.lines().filter(l -> l.startsWith("id ")).findFirst().orElseThrow())
                .matches("id\\s+long\\s+0\\s+999\\s+0\\s+0\\s+8");
        assertThat(out.lines().filter(l -> l.startsWith("k ")).findFirst().orElseThrow())
                .matches("k\\s+long\\s+0\\s+6\\s+100\\s+0\\s+8");
    }

    @Test
    void theIndexCommandGivesForeignObjectsStatisticsAndAChangedObjectIsRead() throws Exception {
        String path = "stork://" + S3_BUCKET + "/foreign-" + UUID.randomUUID().toString().substring(0, 8);
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, S3_BUCKET);
        for (int f = 0; f < 6; f++) { // uploaded by another tool: plain objects, no manifest
            StringBuilder csv = new StringBuilder("id,name\n");
            for (int id = f * 100; id < f * 100 + 100; id++) {
                csv.append(id).append(",name-").append(id).append('\n');
            }
            try (var out = fs.create(new Path(path + "/day-" + f + ".csv"))) {
                out.write(csv.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        java.util.Map<String, String> options = java.util.Map.of("header", "true", "inferSchema", "true");
        Dataset<Row> before = spark.read().options(options).csv(path).where("id = 437");
        assertThat(before.collectAsList()).hasSize(1);
        assertThat(DataSkipping.reports(before).get(0).withStatistics()).isZero();

        var result = DataSkipping.index(spark, path, "csv", options);
        assertThat(result.objects()).isEqualTo(6);
        assertThat(result.indexed()).isEqualTo(6);

        Dataset<Row> after = spark.read().options(options).csv(path).where("id = 437");
        List<Row> rows = new java.util.ArrayList<>();
        Set<String> opened = objectsRead(path, () -> rows.addAll(after.collectAsList()));
        assertThat(rows).hasSize(1);
        assertThat(opened).as("the one object holding id 437, and the index").containsExactlyInAnyOrder(
                "day-4.csv", "skipping-index.json");
        assertThat(DataSkipping.reports(after).get(0).objectsRead()).isEqualTo(1);

        // Another tool rewrites day-1.csv to hold id 437 too: its statistics no longer match, so it is read.
        try (var out = fs.create(new Path(path + "/day-1.csv"), true)) {
            out.write("id,name\n437,rewritten\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Dataset<Row> changed = spark.read().options(options).csv(path).where("id = 437");
        assertThat(changed.collectAsList()).hasSize(2);
        ScanReport report = DataSkipping.reports(changed).get(0);
        assertThat(report.objectsRead()).isEqualTo(2);
        assertThat(report.withStatistics()).isEqualTo(5);

        // Indexed again from the dataset tool (in this JVM it uses the running session, and leaves it running).
        assertThat(io.stork.commit.DatasetToolAccess.run(toolArgs("index", path, "csv", "header=true",
                "inferSchema=true"))).isZero();
        Dataset<Row> reindexed = spark.read().options(options).csv(path).where("id = 437");
        assertThat(reindexed.collectAsList()).hasSize(2);
        assertThat(DataSkipping.reports(reindexed).get(0).withStatistics()).isEqualTo(6);
        assertThat(DataSkipping.reports(reindexed).get(0).objectsRead()).isEqualTo(2);
        assertThat(spark.sparkContext().isStopped()).isFalse();
    }

    @Test
    void anyHadoopPathIsJudgedByItsIndexWhenAsked() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("stork-foreign");
        for (int f = 0; f < 4; f++) {
            StringBuilder json = new StringBuilder();
            for (int id = f * 10; id < f * 10 + 10; id++) {
                json.append("{\"id\":").append(id).append(",\"x\":").append(id * 0.5).append("}\n");
            }
            java.nio.file.Files.writeString(dir.resolve("part-" + f + ".json"), json);
        }
        String path = dir.toUri().toString();
        DataSkipping.index(spark, path, "json", java.util.Map.of());
        spark.conf().set(SkippingRule.OTHER_SCHEMES, "true");
        try {
            Dataset<Row> q = spark.read().json(path).where("id >= 31");
            assertThat(q.collectAsList()).hasSize(9);
            ScanReport report = DataSkipping.reports(q).get(0);
            assertThat(report.objectsListed()).isEqualTo(4);
            assertThat(report.objectsRead()).isEqualTo(1);
        } finally {
            spark.conf().unset(SkippingRule.OTHER_SCHEMES);
        }
    }

    @Test
    void skippingSettingsAreADatasetPropertyThatLaterWritesUse() throws Exception {
        String path = "stork://" + S3_BUCKET + "/props-" + UUID.randomUUID().toString().substring(0, 8);
        spark.range(0, 100, 1, 1).selectExpr("id", "concat('n', CAST(id AS STRING)) AS name", "id * 2 AS other")
                .write().option("stork.skipping.columns", "id,name").option("stork.skipping.indexes", "name:bloom")
                .parquet(path);
        assertThat(manifest(path).properties()).containsEntry("stork.skipping.columns", "id,name")
                .containsEntry("stork.skipping.indexes", "name:bloom");

        // An append without options gathers what the dataset says.
        spark.range(100, 200, 1, 1).selectExpr("id", "concat('n', CAST(id AS STRING)) AS name", "id * 2 AS other")
                .write().mode("append").parquet(path);
        Manifest appended = manifest(path);
        assertThat(appended.parts()).hasSize(2).allSatisfy(p -> assertThat(p.statsJson())
                .contains("\"name\"", "\"bloom\"").doesNotContain("\"other\""));
        assertThat(appended.properties()).containsEntry("stork.skipping.columns", "id,name");

        // An append with its own options wins, and they become the dataset's settings.
        spark.range(200, 300, 1, 1).selectExpr("id", "concat('n', CAST(id AS STRING)) AS name", "id * 2 AS other")
                .write().mode("append").option("stork.skipping.columns", "other").parquet(path);
        Manifest third = manifest(path);
        ManifestPart newest = third.parts().stream().filter(p -> p.addedIn() == 3).findFirst().orElseThrow();
        assertThat(newest.statsJson()).contains("\"other\"").doesNotContain("\"id\"");
        assertThat(third.properties()).containsEntry("stork.skipping.columns", "other")
                .doesNotContainKey("stork.skipping.indexes"); // a write's settings replace the dataset's whole

        // Rows the dataset's settings do not fit (no column 'other') are still written, with the defaults.
        spark.range(300, 310, 1, 1).selectExpr("id").write().mode("append").parquet(path);
        assertThat(spark.read().parquet(path).count()).isEqualTo(310);
    }

    /** The dataset tool's arguments with this session's bucket settings as -D arguments, as its command line takes them. */
    private static String[] toolArgs(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        for (java.util.Map.Entry<String, String> e : spark.sparkContext().hadoopConfiguration()) {
            if (e.getKey().startsWith("fs.stork.bucket.")) {
                all.add(0, "-D" + e.getKey() + "=" + e.getValue());
            }
        }
        return all.toArray(new String[0]);
    }
}
