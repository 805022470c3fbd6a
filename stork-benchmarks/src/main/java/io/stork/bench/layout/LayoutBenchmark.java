package io.stork.bench.layout;

import io.stork.bench.LocalStoreSessions;
import io.stork.bench.layout.LayoutQueries.Query;
import io.stork.bench.layout.LayoutWriter.Written;
import io.stork.bench.layout.ScenarioRunner.Scenario;
import io.stork.hadoop.StorkFileSystem;
import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.layout.history.QueryHistory;
import io.stork.localstore.LocalStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * Benchmark (not a test): the IOStack paper's GridPocket experiment (D3.3, 2.3) on the local store. The same
 * readings written once per layout (none, grid at precisions 0 and 1, k-d trees, a k-d tree steered by a
 * query history) at several object counts, and as Delta tables clustered by Z-order and by liquid
 * clustering; then box queries around drawn meters and queries the history did not foresee, each measured
 * at the store's access log (objects, bytes, GETs) with planning and wall time, the rows asserted the same
 * under every scenario. Writes docs/benchmarks/&lt;name&gt;.md and charts. Run by scripts/bench-layout.sh.
 */
public final class LayoutBenchmark {

    public static void main(String[] args) throws Exception {
        LayoutOptions o = LayoutOptions.parse(args);
        long began = System.nanoTime();
        LocalStore store = LocalStore.shared();
        String bucket = "stork-bench-layout-" + UUID.randomUUID().toString().substring(0, 6);
        SparkSession spark = session(store, o);
        ((StorkFileSystem) new org.apache.hadoop.fs.Path("stork://" + bucket + "/")
                .getFileSystem(spark.sparkContext().hadoopConfiguration())).store().createBucket(bucket);

        Dataset<Row> rows = Readings.frame(spark, o).persist(StorageLevel.MEMORY_AND_DISK());
        long total = rows.count();
        System.out.printf(Locale.ROOT, "stork-bench-layout: %,d meters × %d days = %,d readings; objects %s; "
                + "%d queries per class; %d runs%n", o.meters(), o.days(), total, o.objects(), o.queries(), o.runs());
        GridPocketGenerator data = Readings.generator(o);
        QueryHistory history = LayoutQueries.history(data, o, System.currentTimeMillis());
        List<Query> queries = LayoutQueries.measuring(data, o, rows);

        LayoutWriter writer = new LayoutWriter(spark, store, bucket, history);
        List<Written> written = new ArrayList<>();
        List<Scenario> scenarios = new ArrayList<>();
        for (int n : o.objects()) {
            for (String[] layout : LayoutWriter.LAYOUTS) {
                Written w = writer.write(layout[0], rows, n);
                written.add(w);
                System.out.printf(Locale.ROOT, "  written %-13s n=%-4d %4d objects %,12d bytes %6d ms %5d calls %s%s%n",
                        w.layout(), n, w.objects(), w.bytes(), w.write().ms(), w.write().calls(), w.splits(),
                        w.optimize() == null ? "" : String.format(Locale.ROOT, "; OPTIMIZE %d ms %d calls %,d bytes in",
                                w.optimize().ms(), w.optimize().calls(), w.optimize().bytesIn()));
                scenarios.add(new Scenario(w.layout() + "-" + n, w.layout(), layout[1], n, w.path(), w.delta(), true,
                        true));
            }
            Written kd = find(written, "kd", n);
            Written none = find(written, "none", n);
            scenarios.add(new Scenario("kd-parquet-" + n, "kd-parquet", "Stork, k-d tree (lat, lon), Stork's skipping "
                    + "off: Spark's Parquet pruning alone", n, kd.path(), false, false, true));
            scenarios.add(new Scenario("everything-" + n, "everything", "no layout, nothing skipped (the paper's "
                    + "baseline)", n, none.path(), false, false, false));
        }
        rows.unpersist();

        ScenarioRunner runner = new ScenarioRunner(spark, store, bucket);
        // JIT and first-use costs (Delta's log, Stork's manifest cache) out of the first measured scenario.
        List<Query> warm = queries.subList(0, 1);
        runner.run(scenarios.get(0), warm, false);
        scenarios.stream().filter(Scenario::delta).findFirst().ifPresent(s -> runner.run(s, warm, false));
        for (int run = 1; run <= o.runs(); run++) {
            for (Scenario scenario : scenarios) {
                long start = System.nanoTime();
                for (LayoutQueries.QueryClass cls : LayoutQueries.CLASSES) {
                    runner.run(scenario, queries.stream().filter(q -> q.cls().equals(cls.id())).toList(), true);
                }
                System.out.printf(Locale.ROOT, "  run %d %-18s %d queries in %d ms%n", run, scenario.id(),
                        queries.size(), (System.nanoTime() - start) / 1_000_000);
            }
        }
        long elapsedSeconds = (System.nanoTime() - began) / 1_000_000_000;
        Path report = LocalStore.repoRoot().resolve("docs/benchmarks/" + o.name() + ".md");
        LayoutReport result = new LayoutReport(o, total, written, scenarios, queries, runner.medians(), elapsedSeconds);
        Files.writeString(report, result.render());
        result.charts(report.getParent().resolve(o.name()));
        System.out.println("report: " + report + " (" + elapsedSeconds + " s)");
        spark.stop();
    }

    static Written find(List<Written> written, String layout, int n) {
        return written.stream().filter(w -> w.layout().equals(layout) && w.buckets() == n).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + layout + " dataset at " + n + " objects"));
    }

    private static SparkSession session(LocalStore store, LayoutOptions o) {
        return LocalStoreSessions.storkAndS3a(SparkSession.builder(), store)
                .master(o.master()).appName("stork-bench-layout")
                .config("spark.hadoop.fs.stork.read.whole.object.size", o.wholeObjectSize())
                .config("spark.ui.enabled", "false")
                // Adaptive execution would coalesce the n write partitions into fewer objects.
                .config("spark.sql.adaptive.enabled", "false")
                // Queries' history written when the session stops, not inside a measured query.
                .config("spark.stork.layout.history.flushInterval", "1h")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension,io.stork.spark.StorkSparkExtensions")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.hadoop.fs.s3a.committer.magic.enabled", "false")
                .getOrCreate();
    }
}
