package io.stork.bench.skipping;

import io.stork.bench.StoreReads;
import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.functions;

/**
 * Benchmark (not a test): data skipping against Delta Lake's, on the local store. The same rows, laid out
 * the same way (range-partitioned by id into the same number of objects), written as Parquet, CSV and JSON
 * through Stork (statistics gathered while writing) and as a Delta table through S3A; then selective
 * queries, each measured for Stork with skipping, Stork without (Spark's own Parquet pruning alone) and
 * Delta: data objects opened and bytes the store sent (its access log), GET calls, planning time (the
 * physical plan, where Delta judges its statistics, plus the scan's file listing, where Stork does), wall time. Medians of interleaved runs.
 * Writes docs/benchmarks/&lt;name&gt;.md. Run by scripts/bench-skipping.sh.
 */
public final class SkippingBenchmark {

    private record Query(String id, String label, String filter) {
    }

    private record Scenario(String id, String label, String format, boolean skipping) {
    }

    /** One query under one scenario, one run. */
    private record Sample(long objects, long bytes, long gets, long listingMs, long wallMs, long rows) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = StoreReads.options(args);
        long rows = Long.parseLong(opts.getOrDefault("rows", "2000000"));
        int objects = Integer.parseInt(opts.getOrDefault("objects", "20"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "3"));
        String name = opts.getOrDefault("name", "data-skipping");
        LocalStore store = LocalStore.shared();
        String bucket = "stork-bench-skip-" + UUID.randomUUID().toString().substring(0, 6);
        boolean exactTails = Boolean.parseBoolean(opts.getOrDefault("tail-exact", "true"));
        SparkSession spark = session(store, exactTails);
        ((StorkFileSystem) new org.apache.hadoop.fs.Path("stork://" + bucket + "/")
                .getFileSystem(spark.sparkContext().hadoopConfiguration())).store().createBucket(bucket);

        Dataset<Row> data = rows(spark, rows).repartitionByRange(objects, functions.col("id"));
        String parquet = "stork://" + bucket + "/events-parquet";
        String csv = "stork://" + bucket + "/events-csv";
        String json = "stork://" + bucket + "/events-json";
        String delta = "s3a://" + bucket + "/events-delta";
        System.out.printf("stork-bench-skipping: %,d rows in %d objects per layout, %d runs%n", rows, objects, runs);
        // The bloom filter sized for the distinct values a part holds, as docs/data-skipping.md advises.
        String bloomItems = Long.toString(rows / objects);
        data.write().option("stork.skipping.indexes", "city:values,user_id:bloom")
                .option("stork.skipping.bloom.items", bloomItems).option("stork.skipping.geo", "lat:lon").parquet(parquet);
        data.write().option("header", "true").option("stork.skipping.indexes", "city:values,user_id:bloom")
                .option("stork.skipping.bloom.items", bloomItems).option("stork.skipping.geo", "lat:lon").csv(csv);
        data.write().option("stork.skipping.indexes", "city:values,user_id:bloom")
                .option("stork.skipping.bloom.items", bloomItems).option("stork.skipping.geo", "lat:lon").json(json);
        data.write().format("delta").save(delta);
        System.out.println("  written: Stork Parquet, Stork CSV, Stork JSON, Delta");

        List<Scenario> scenarios = List.of(
                new Scenario("stork-parquet", "Stork, Parquet, skipping", "parquet", true),
                new Scenario("stork-parquet-off", "Stork, Parquet, no skipping (Parquet's own pruning)", "parquet", false),
                new Scenario("delta", "Delta Lake 4.1, Parquet, data skipping", "delta", true),
                new Scenario("stork-csv", "Stork, CSV, skipping", "csv", true),
                new Scenario("stork-csv-off", "Stork, CSV, no skipping", "csv", false),
                new Scenario("stork-json", "Stork, JSON, skipping", "json", true),
                new Scenario("stork-json-off", "Stork, JSON, no skipping", "json", false));
        List<Query> queries = queries(spark, rows);
        Map<String, Map<String, List<Sample>>> samples = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            for (Scenario scenario : scenarios) {
                for (Query query : queries) {
                    String path = switch (scenario.format()) {
                        case "parquet" -> parquet;
                        case "csv" -> csv;
                        case "json" -> json;
                        default -> delta;
                    };
                    Sample sample = measure(spark, store, bucket, scenario, path, query);
                    samples.computeIfAbsent(query.id(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(scenario.id(), k -> new ArrayList<>()).add(sample);
                    System.out.printf("  run %d %-18s %-12s %3d objects %,12d bytes %3d GET %5d ms listing %6d ms rows=%d%n",
                            run, scenario.id(), query.id(), sample.objects(), sample.bytes(), sample.gets(),
                            sample.listingMs(), sample.wallMs(), sample.rows());
                }
            }
        }
        samples.forEach((query, byScenario) -> {
            if (byScenario.values().stream().map(list -> list.get(0).rows()).distinct().count() != 1) {
                throw new IllegalStateException("query " + query + ": the scenarios disagree on the rows: " + byScenario);
            }
        });
        long manifestBytes = size(spark, parquet + "/_SUCCESS");
        long deltaLogBytes = size(spark, delta + "/_delta_log");
        Path report = LocalStore.repoRoot().resolve("docs/benchmarks/" + name + ".md");
        Files.writeString(report, SkippingReport.render(name, opts.getOrDefault("command", "bash scripts/bench-skipping.sh"),
                rows, objects, runs, scenarios.stream().map(s -> new String[] {s.id(), s.label()}).toList(),
                queries.stream().map(q -> new String[] {q.id(), q.label(), q.filter()}).toList(),
                medians(samples), manifestBytes, deltaLogBytes));
        SkippingReport.chart(report.getParent().resolve(name), medians(samples),
                scenarios.stream().map(Scenario::id).toList());
        System.out.println("report: " + report);
        spark.stop();
    }

    private static SparkSession session(LocalStore store, boolean exactTails) {
        return io.stork.bench.LocalStoreSessions.storkAndS3a(SparkSession.builder(), store)
                .master("local[2]").appName("stork-bench-skipping")
                .config("spark.hadoop.fs.stork.read.tail.exact", Boolean.toString(exactTails))
                .config("spark.ui.enabled", "false")
                .config("spark.sql.adaptive.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension,io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not between measured queries
                .config("spark.stork.layout.history.flushInterval", "1h")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.hadoop.fs.s3a.committer.magic.enabled", "false")
                .getOrCreate();
    }

    /**
     * Events arriving over time: ids in order, a timestamp every 10 s, cities in runs (a batch per city),
     * points near their city, a high-cardinality user id and an amount.
     */
    private static Dataset<Row> rows(SparkSession spark, long rows) {
        long run = Math.max(1, rows / 200);
        return spark.range(0, rows, 1, 4).selectExpr("id",
                "timestamp_seconds(1767225600 + id * 10) AS ts",
                "pmod(xxhash64(id), 10000000) AS user_id",
                "concat('city-', lpad(CAST(pmod(id DIV " + run + ", 50) AS STRING), 2, '0')) AS city",
                "CAST(-50.0 + pmod(id DIV " + run + ", 50) * 2 + (pmod(xxhash64(id, 1), 1000) / 1000.0 - 0.5) * 0.5 AS DOUBLE) AS lat",
                "CAST(-170.0 + pmod(id DIV " + run + ", 50) * 7 + (pmod(xxhash64(id, 2), 1000) / 1000.0 - 0.5) * 0.5 AS DOUBLE) AS lon",
                "CAST(pmod(xxhash64(id, 3), 100000) / 100.0 AS DOUBLE) AS amount",
                "concat('order-', CAST(id AS STRING)) AS note");
    }

    private static List<Query> queries(SparkSession spark, long rows) {
        long point = rows * 37 / 100;
        long user = spark.sql("SELECT pmod(xxhash64(CAST(" + (rows * 71 / 100) + " AS BIGINT)), 10000000)")
                .first().getLong(0);
        long from = 1767225600L + rows * 6 / 10 * 10;
        // City 17's centre; its rows are those of the runs with (id DIV run) % 50 = 17.
        double lat = -50.0 + 17 * 2;
        double lon = -170.0 + 17 * 7;
        return List.of(
                new Query("point", "point lookup on id", "id = " + point),
                new Query("range", "time range (0.5% of rows)", "ts >= timestamp_seconds(" + from + ") AND ts < timestamp_seconds("
                        + (from + rows / 200 * 10) + ")"),
                new Query("in", "IN on a low-cardinality string", "city IN ('city-07', 'city-33')"),
                new Query("user", "point lookup on a high-cardinality id (one row)", "user_id = " + user),
                new Query("absent", "lookup of an absent high-cardinality id", "user_id = 10000001"),
                new Query("geo", "geo box (two BETWEENs)", String.format(Locale.ROOT,
                        "lat BETWEEN %.2f AND %.2f AND lon BETWEEN %.2f AND %.2f", lat - 0.3, lat + 0.3, lon - 0.3, lon + 0.3)));
    }

    private static Sample measure(SparkSession spark, LocalStore store, String bucket, Scenario scenario, String path,
                                  Query query) {
        spark.conf().set("spark.stork.skipping.filter.enabled", Boolean.toString(scenario.skipping()));
        Dataset<Row> table = switch (scenario.format()) {
            case "delta" -> spark.read().format("delta").load(path);
            case "csv" -> spark.read().option("header", "true").schema(SCHEMA).csv(path);
            case "json" -> spark.read().schema(SCHEMA).json(path);
            default -> spark.read().schema(SCHEMA).parquet(path);
        };
        Dataset<Row> q = table.where(query.filter()).selectExpr("count(*) AS n", "sum(amount) AS s");
        AccessLog.Window window = store.accessLog().openWindow();
        long start = System.nanoTime();
        SparkPlan plan = q.queryExecution().executedPlan(); // Delta judges its statistics here
        long planMs = (System.nanoTime() - start) / 1_000_000;
        Row result = q.collectAsList().get(0);
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        List<AccessLogEntry> entries = StoreReads.inBucket(window.counts().entries(), bucket);
        StoreReads.Read read = StoreReads.read(entries);
        if (Boolean.getBoolean("stork.bench.showGets")) { // where the bytes went, call by call
            entries.forEach(e -> System.out.printf("  %s %s %s %s %d %s%n", scenario.id(), e.method(), e.path(), e.query(),
                    e.bytesSent(), e.headers()));
        }
        spark.conf().unset("spark.stork.skipping.filter.enabled");
        return new Sample(read.objects(), read.bytes(), read.gets(), planMs + StoreReads.listingMs(plan), wallMs,
                result.getLong(0));
    }

    static final String SCHEMA = "id BIGINT, ts TIMESTAMP, user_id BIGINT, city STRING, lat DOUBLE, lon DOUBLE, "
            + "amount DOUBLE, note STRING";

    private static long size(SparkSession spark, String path) throws java.io.IOException {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
        return p.getFileSystem(spark.sparkContext().hadoopConfiguration()).getContentSummary(p).getLength();
    }

    /** query → scenario → median sample (each field its own median). */
    private static Map<String, Map<String, long[]>> medians(Map<String, Map<String, List<Sample>>> samples) {
        Map<String, Map<String, long[]>> out = new LinkedHashMap<>();
        samples.forEach((query, byScenario) -> byScenario.forEach((scenario, list) -> {
            long[] m = new long[6];
            m[0] = StoreReads.median(list.stream().mapToLong(Sample::objects).toArray());
            m[1] = StoreReads.median(list.stream().mapToLong(Sample::bytes).toArray());
            m[2] = StoreReads.median(list.stream().mapToLong(Sample::gets).toArray());
            m[3] = StoreReads.median(list.stream().mapToLong(Sample::listingMs).toArray());
            m[4] = StoreReads.median(list.stream().mapToLong(Sample::wallMs).toArray());
            m[5] = list.get(0).rows();
            out.computeIfAbsent(query, k -> new LinkedHashMap<>()).put(scenario, m);
        }));
        return out;
    }

    static String today() {
        return LocalDate.now().toString();
    }
}
