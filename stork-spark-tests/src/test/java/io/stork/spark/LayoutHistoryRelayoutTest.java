package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.layout.gridpocket.GeoQueries;
import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import io.stork.layout.model.Range;
import io.stork.manifest.Manifest;
import io.stork.manifest.commit.ConcurrentCommitException;
import io.stork.spark.layout.LayoutSpec;
import io.stork.spark.layout.Relayout;
import io.stork.spark.layout.StorkLayouts;
import io.stork.spark.layout.history.QueryHistoryRecorder;
import io.stork.spark.skipping.DataSkipping;
import io.stork.store.CallType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query history captured from data skipping's judged scans and kept beside the dataset, at no call on
 * the query path; and a relayout that rewrites a generation as one new generation, keeping an append
 * committed while it ran, and committing nothing when a part it read was replaced meanwhile. Memory store.
 */
class LayoutHistoryRelayoutTest {

    private static final String BUCKET = "unit-relayout";
    private static final long START = 1_767_225_600L;
    private static final GridPocketGenerator DATA = new GridPocketGenerator(42, 500, START, 8);
    private static final GridPocketGenerator LATER = new GridPocketGenerator(7, 60, START + 8 * 900, 4);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        spark = MemorySpark.session("stork-relayout", Map.of(QueryHistoryRecorder.FLUSH_INTERVAL, "300ms"));
    }

    @AfterAll
    static void stopSpark() {
        MemorySpark.stop(spark);
    }

    private static Dataset<Row> frame(SparkSession session, GridPocketGenerator data, int partitions) {
        return MemorySpark.readings(session, data, partitions);
    }

    private static String path(String name) {
        return "stork://" + BUCKET + "/" + name;
    }

    private static Column box(GeoQueries.GeoQuery q) {
        return functions.col("lat").between(q.minLat(), q.maxLat()).and(functions.col("lon").between(q.minLon(),
                q.maxLon()));
    }

    private static List<String> sorted(List<Row> rows) {
        return MemorySpark.sorted(rows);
    }

    private static Manifest manifest(String dataset) throws Exception {
        return MemorySpark.manifest(spark, dataset);
    }

    private static Map<CallType, Long> calls(Runnable action) throws Exception {
        return MemorySpark.calls(BUCKET, action::run);
    }

    private static QueryHistory awaitHistory(String dataset, int queries) throws Exception {
        long deadline = System.currentTimeMillis() + 15_000;
        QueryHistory history = StorkLayouts.history(spark, dataset);
        while (history.size() < queries && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            history = StorkLayouts.history(spark, dataset);
        }
        return history;
    }

    @Test
    void queriesJudgedBySkippingAreKeptBesideTheDataset_andTheQueryMakesNoCallMore() throws Exception {
        String dataset = path("history");
        frame(spark, DATA, 8).write().parquet(dataset);
        List<GeoQueries.GeoQuery> queries = new GeoQueries(DATA, 5).measureSet(6, 5, 4);

        // The same query with capture on (its write an hour away) and off: the same calls.
        SparkSession on = spark.newSession();
        on.conf().set(QueryHistoryRecorder.FLUSH_INTERVAL, "1h");
        SparkSession off = spark.newSession();
        off.conf().set(QueryHistoryRecorder.ENABLED, "false");
        Column filter = box(queries.get(0));
        off.read().parquet(dataset).where(filter).count(); // warm the manifest cache alike for both
        Map<CallType, Long> withCapture = calls(() -> on.read().parquet(dataset).where(filter).count());
        Map<CallType, Long> without = calls(() -> off.read().parquet(dataset).where(filter).count());
        assertThat(withCapture).as("capture adds no call to a query").isEqualTo(without);

        for (GeoQueries.GeoQuery q : queries) {
            spark.read().parquet(dataset).where(box(q).and(functions.col("date").geq(START))).collectAsList();
        }
        QueryHistory history = awaitHistory(dataset, queries.size());
        assertThat(history.size()).as("one record per query, written by the driver's flusher")
                .isEqualTo(queries.size());
        for (int i = 0; i < queries.size(); i++) {
            QueryRecord r = history.queries().get(i);
            GeoQueries.GeoQuery q = queries.get(i);
            assertThat(r.constraints()).containsEntry("lat", Range.of(q.minLat(), q.maxLat()))
                    .containsEntry("lon", Range.of(q.minLon(), q.maxLon())).containsEntry("date", Range.of(START, null));
        }
        spark.read().parquet(dataset + "@v1").where(box(queries.get(1))).count();
        assertThat(awaitHistory(dataset, queries.size() + 1).size()).as("a pinned generation's query is the dataset's")
                .isEqualTo(queries.size() + 1);
    }

    @Test
    void aRelayoutRewritesOneGeneration_keepingAnAppendCommittedWhileItRan() throws Exception {
        String dataset = path("relayout");
        frame(spark, DATA, 16).write().parquet(dataset);
        GeoQueries geo = new GeoQueries(DATA, 11);
        for (GeoQueries.GeoQuery q : geo.historySet(30, 5, 4)) {
            spark.read().parquet(dataset).where(box(q)).count();
        }
        assertThat(awaitHistory(dataset, 30).size()).isEqualTo(30);
        List<GeoQueries.GeoQuery> measured = geo.measureSet(20, 5, 4);
        long readBefore = 0;
        List<List<String>> before = new ArrayList<>();
        for (GeoQueries.GeoQuery q : measured) {
            Dataset<Row> d = spark.read().parquet(dataset).where(box(q));
            before.add(sorted(d.collectAsList()));
            readBefore += DataSkipping.reports(d).get(0).objectsRead();
        }

        Relayout.Prepared prepared = Relayout.of(spark, dataset, LayoutSpec.kdTree(List.of("lat", "lon"), 16))
                .prepare();
        assertThat(prepared.sourceGeneration()).isEqualTo(1);
        frame(spark, LATER, 1).write().mode("append").parquet(dataset); // generation 2, while the relayout runs
        Relayout.Result result = prepared.commit();

        assertThat(result.generation()).isEqualTo(3);
        // The 30 history queries and those of the 20 measured ones written by then (all judged scans count).
        assertThat(result.historyQueries()).as("the stored history steered the model").isBetween(30, 50);
        assertThat(result.model().history().queries()).isEqualTo(result.historyQueries());
        Manifest m = manifest(dataset);
        assertThat(m.operation()).isEqualTo(Manifest.Operation.RELAYOUT);
        assertThat(result.partsAfter()).isEqualTo(16);
        assertThat(result.partsKept()).as("the append's part").isEqualTo(1);
        assertThat(m.parts()).hasSize(17);
        assertThat(m.removed()).as("generation 1's parts, kept for time travel").hasSize(16);
        List<Row> all = new ArrayList<>(frame(spark, DATA, 1).collectAsList());
        all.addAll(frame(spark, LATER, 1).collectAsList());
        assertThat(sorted(spark.read().parquet(dataset).collectAsList())).isEqualTo(sorted(all));
        assertThat(sorted(spark.read().option("versionAsOf", "1").parquet(dataset).collectAsList()))
                .isEqualTo(sorted(frame(spark, DATA, 1).collectAsList()));
        assertThat(StorkLayouts.load(spark, dataset)).isEqualTo(result.model());

        long readAfter = 0;
        for (int i = 0; i < measured.size(); i++) {
            GeoQueries.GeoQuery q = measured.get(i);
            Dataset<Row> d = spark.read().option("versionAsOf", "3").parquet(dataset).where(box(q)
                    .and(functions.col("date").lt(START + 8 * 900)));
            assertThat(sorted(d.collectAsList())).as("the same rows after the relayout").isEqualTo(before.get(i));
            readAfter += DataSkipping.reports(d).get(0).objectsRead();
        }
        System.out.printf("LayoutHistoryRelayoutTest: %d 5x5 km queries read %.2f parts each before the relayout, "
                + "%.2f after (of 16 and 17)%n", measured.size(), readBefore / (double) measured.size(),
                readAfter / (double) measured.size());
        assertThat(readAfter).isLessThan(readBefore / 3);
    }

    @Test
    void aGridRelayoutSizedByTargetBytesKeepsABoxPerCellInEachPartsStatistics() throws Exception {
        String dataset = path("relayout-grid");
        frame(spark, DATA, 8).write().parquet(dataset);
        long bytes = manifest(dataset).parts().stream().mapToLong(p -> p.length()).sum();
        List<GeoQueries.GeoQuery> measured = new GeoQueries(DATA, 3).measureSet(15, 10, 4);
        List<List<String>> before = new ArrayList<>();
        long readBefore = 0;
        for (GeoQueries.GeoQuery q : measured) {
            Dataset<Row> d = spark.read().parquet(dataset).where(box(q));
            before.add(sorted(d.collectAsList()));
            readBefore += DataSkipping.reports(d).get(0).objectsRead();
        }
        Relayout.Result r = Relayout.of(spark, dataset, LayoutSpec.grid("lat", "lon", 1, 1)).useStoredHistory(false)
                .targetObjectBytes((bytes + 7) / 8).run();
        assertThat(r.model().buckets()).as("ceil(bytes / target)").isEqualTo(8);
        Manifest m = manifest(dataset);
        assertThat(m.properties()).containsEntry("stork.skipping.geo", "lat:lon");
        assertThat(m.parts()).hasSize(r.partsAfter()).allSatisfy(p -> assertThat(p.statsJson()).contains("geo"));
        long readAfter = 0;
        for (int i = 0; i < measured.size(); i++) {
            Dataset<Row> d = spark.read().parquet(dataset).where(box(measured.get(i)));
            assertThat(sorted(d.collectAsList())).isEqualTo(before.get(i));
            readAfter += DataSkipping.reports(d).get(0).objectsRead();
        }
        System.out.printf("LayoutHistoryRelayoutTest: grid relayout, %d 10x10 km queries read %.2f parts each before, "
                + "%.2f after (of %d)%n", measured.size(), readBefore / (double) measured.size(),
                readAfter / (double) measured.size(), r.partsAfter());
        assertThat(readAfter).isLessThan(readBefore / 2);
    }

    @Test
    void aRelayoutWhosePartsWereReplacedWhileItRanCommitsNothing() throws Exception {
        String dataset = path("relayout-conflict");
        frame(spark, DATA, 4).write().parquet(dataset);
        Relayout.Prepared prepared = Relayout.of(spark, dataset, LayoutSpec.kdTree(List.of("lat", "lon"), 4))
                .useStoredHistory(false).prepare();
        frame(spark, LATER, 2).write().mode("overwrite").parquet(dataset); // generation 2 replaces what it read
        assertThatThrownBy(prepared::commit).satisfies(e -> {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            assertThat(root).isInstanceOf(ConcurrentCommitException.class)
                    .hasMessageContaining("the relayout of generation 1 cannot commit")
                    .hasMessageContaining("nothing was committed");
        });
        assertThat(manifest(dataset).generation()).isEqualTo(2);
        assertThat(sorted(spark.read().parquet(dataset).collectAsList()))
                .isEqualTo(sorted(frame(spark, LATER, 1).collectAsList()));
    }

    @Test
    void aRelayoutOfNothingOfAnotherSchemeOrOfAPartitionedDatasetFailsOnOneLine() {
        String partitioned = path("partitioned");
        frame(spark, LATER, 1).write().partitionBy("type").parquet(partitioned);
        assertThatThrownBy(() -> StorkLayouts.relayout(spark, partitioned, LayoutSpec.kdTree(List.of("lat"), 2)))
                .hasMessageStartingWith("dataset " + partitioned + " is partitioned (parts under type=")
                .hasMessageEndingWith("/): relayout rewrites unpartitioned datasets only");
        assertThatThrownBy(() -> StorkLayouts.relayout(spark, path("nothing-here"),
                LayoutSpec.kdTree(List.of("lat"), 2))).hasMessage("no Stork dataset at " + path("nothing-here")
                + " (a relayout rewrites a committed generation)");
        assertThatThrownBy(() -> StorkLayouts.relayout(spark, "file:///tmp/x", LayoutSpec.kdTree(List.of("lat"), 2)))
                .hasMessage("relayout works on stork:// datasets, not file:///tmp/x");
    }
}
