package io.stork.bench.layout;

import io.stork.bench.StoreReads;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;

/**
 * Runs every query under every scenario and counts, per query, what the store served. One access-log
 * window per scenario and query class (each window costs two marker round trips and a settling pause);
 * inside it, each call is the query's that started last before the call did (the proxy logs each call's
 * start time, on the same clock). Asserts that every scenario returns the same rows for every query.
 */
final class ScenarioRunner {

    /**
     * How a dataset is read: {@code skipping} is Stork's skipping (the manifest's statistics),
     * {@code pushdown} Spark's Parquet filter pushdown (footer row-group statistics, page indexes).
     */
    record Scenario(String id, String layout, String label, int objects, String path, boolean delta,
                    boolean skipping, boolean pushdown) {
    }

    /** One query under one scenario, one run: the rows' count and hash are the correctness check. */
    record Sample(long objects, long bytes, long gets, long planMs, long wallMs, long rows, long hash) {
    }

    private final SparkSession spark;
    private final LocalStore store;
    private final String bucket;
    /** query key → scenario id → one sample per run. */
    private final Map<String, Map<String, List<Sample>>> samples = new LinkedHashMap<>();

    ScenarioRunner(SparkSession spark, LocalStore store, String bucket) {
        this.spark = spark;
        this.store = store;
        this.bucket = bucket;
    }

    /** Runs {@code queries} under {@code scenario}; a warm-up run ({@code record} false) keeps nothing. */
    void run(Scenario scenario, List<LayoutQueries.Query> queries, boolean record) {
        spark.conf().set("spark.stork.skipping.filter.enabled", Boolean.toString(scenario.skipping()));
        spark.conf().set("spark.sql.parquet.filterPushdown", Boolean.toString(scenario.pushdown()));
        try {
            AccessLog.Window window = store.accessLog().openWindow();
            double[] starts = new double[queries.size()];
            long[][] timings = new long[queries.size()][];
            for (int i = 0; i < queries.size(); i++) {
                // From before the read: Delta reads its log when the table is loaded.
                starts[i] = System.currentTimeMillis() / 1000.0;
                Dataset<Row> table = scenario.delta() ? spark.read().format("delta").load(scenario.path())
                        : spark.read().schema(Readings.SCHEMA).parquet(scenario.path());
                table.createOrReplaceTempView("readings");
                Dataset<Row> q = spark.sql(queries.get(i).sql("readings"));
                long start = System.nanoTime();
                SparkPlan plan = q.queryExecution().executedPlan(); // Delta judges its statistics here
                long planMs = (System.nanoTime() - start) / 1_000_000;
                Row result = q.collectAsList().get(0);
                long wallMs = (System.nanoTime() - start) / 1_000_000;
                timings[i] = new long[] {planMs + StoreReads.listingMs(plan), wallMs,
                        result.isNullAt(0) ? 0 : result.getLong(0), result.isNullAt(1) ? 0 : result.getLong(1)};
            }
            List<List<AccessLogEntry>> byQuery = new ArrayList<>();
            queries.forEach(q -> byQuery.add(new ArrayList<>()));
            for (AccessLogEntry e : StoreReads.inBucket(window.counts().entries(), bucket)) {
                int owner = 0;
                while (owner + 1 < starts.length && starts[owner + 1] <= e.startTime()) {
                    owner++;
                }
                byQuery.get(owner).add(e);
            }
            for (int i = 0; i < queries.size() && record; i++) {
                StoreReads.Read read = StoreReads.read(byQuery.get(i));
                long[] t = timings[i];
                Sample sample = new Sample(read.objects(), read.bytes(), read.gets(), t[0], t[1], t[2], t[3]);
                samples.computeIfAbsent(queries.get(i).key(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(scenario.id(), k -> new ArrayList<>()).add(sample);
                check(queries.get(i), scenario, sample);
            }
        } finally {
            spark.conf().unset("spark.stork.skipping.filter.enabled");
            spark.conf().unset("spark.sql.parquet.filterPushdown");
        }
    }

    /** The first scenario's rows are the reference; any other answer stops the benchmark. */
    private void check(LayoutQueries.Query query, Scenario scenario, Sample sample) {
        for (Map.Entry<String, List<Sample>> other : samples.get(query.key()).entrySet()) {
            for (Sample s : other.getValue()) {
                if (s.rows() != sample.rows() || s.hash() != sample.hash()) {
                    throw new IllegalStateException("wrong rows: query " + query.key() + " (" + query.where() + ") "
                            + scenario.id() + " returned " + sample.rows() + " rows (hash " + sample.hash() + "), "
                            + other.getKey() + " " + s.rows() + " (hash " + s.hash() + ")");
                }
            }
        }
    }

    /** query key → scenario id → medians: objects, bytes, GETs, planning ms, wall ms, rows. */
    Map<String, Map<String, long[]>> medians() {
        Map<String, Map<String, long[]>> out = new LinkedHashMap<>();
        samples.forEach((query, byScenario) -> byScenario.forEach((scenario, list) -> {
            long[] m = {
                StoreReads.median(list.stream().mapToLong(Sample::objects).toArray()),
                StoreReads.median(list.stream().mapToLong(Sample::bytes).toArray()),
                StoreReads.median(list.stream().mapToLong(Sample::gets).toArray()),
                StoreReads.median(list.stream().mapToLong(Sample::planMs).toArray()),
                StoreReads.median(list.stream().mapToLong(Sample::wallMs).toArray()),
                list.get(0).rows()};
            out.computeIfAbsent(query, k -> new LinkedHashMap<>()).put(scenario, m);
        }));
        return out;
    }
}
