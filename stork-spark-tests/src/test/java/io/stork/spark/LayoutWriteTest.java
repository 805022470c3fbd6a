package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.layout.gridpocket.GeoQueries;
import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.layout.gridpocket.Reading;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.layout.model.Box;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.PartitionerModel;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.PartStatistics;
import io.stork.skipping.StatisticsCodec;
import io.stork.skipping.spi.IndexTypes;
import io.stork.spark.layout.LaidOut;
import io.stork.spark.layout.LayoutSpec;
import io.stork.spark.layout.StorkLayouts;
import io.stork.spark.skipping.DataSkipping;
import io.stork.spark.skipping.SkippingRule;
import io.stork.store.CallType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Laying out a DataFrame by a layout model at write time (io.stork.spark.layout), over the memory store with
 * Stork's extension: GridPocket-style readings laid out by a k-d tree on (lat, lon) into 16 buckets write one
 * part per bucket, each part's lat/lon statistics inside its bucket's region, and 5x5 km box queries read far
 * fewer parts than the same rows written in arrival order, with the same rows as without skipping.
 */
class LayoutWriteTest {

    private static final String BUCKET = "unit-layout";
    private static final long START = 1_767_225_600L;
    private static final int BUCKETS = 16;
    private static final GridPocketGenerator DATA = new GridPocketGenerator(42, 500, START, 8);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        // Queries' history written when the session stops, not inside a counted window.
        spark = MemorySpark.session("stork-layout", Map.of("spark.stork.layout.history.flushInterval", "1h"));
    }

    @AfterAll
    static void stopSpark() {
        MemorySpark.stop(spark);
    }

    /** The generator's readings in arrival order (time-major), in {@code partitions} contiguous slices. */
    private static Dataset<Row> frame(GridPocketGenerator data, int partitions) {
        return MemorySpark.readings(spark, data, partitions);
    }

    private static String path(String name) {
        return "stork://" + BUCKET + "/" + name;
    }

    private static Manifest manifest(String dataset) throws Exception {
        return MemorySpark.manifest(spark, dataset);
    }

    private static List<String> sorted(List<Row> rows) {
        return MemorySpark.sorted(rows);
    }

    private static Map<CallType, Long> calls(MemorySpark.Action action) throws Exception {
        return MemorySpark.calls(BUCKET, action);
    }

    /** Per partition of {@code rows}: the bucket the model gives each row's (lat, lon), and whether sorted. */
    private static void assertRoutedByModel(Dataset<Row> rows, PartitionerModel model) {
        List<double[]> seen = rows.select("lat", "lon").javaRDD().mapPartitionsWithIndex((i, it) -> {
            List<double[]> out = new ArrayList<>();
            it.forEachRemaining(r -> out.add(new double[] {i, r.getDouble(0), r.getDouble(1)}));
            return out.iterator();
        }, true).collect();
        assertThat(seen).isNotEmpty().allSatisfy(s -> assertThat(model.bucketOf(new Object[] {s[1], s[2]}))
                .as("bucket of (%s, %s)", s[1], s[2]).isEqualTo((int) s[0]));
    }

    @Test
    void aKdTreeLayoutWritesOnePartPerBucketInsideItsRegion_andBoxQueriesReadFarFewerParts() throws Exception {
        Dataset<Row> input = frame(DATA, 4);
        LaidOut out = StorkLayouts.kdTree(input, List.of("lat", "lon"), BUCKETS);
        KdTreeModel model = (KdTreeModel) out.model();
        assertThat(out.rows().javaRDD().getNumPartitions()).isEqualTo(BUCKETS);
        assertRoutedByModel(out.rows(), model);

        String laid = path("t");
        out.rows().write().parquet(laid);
        String plain = path("plain");
        frame(DATA, BUCKETS).write().parquet(plain);

        List<ManifestPart> parts = manifest(laid).parts();
        assertThat(parts).as("one part per non-empty bucket").hasSize(BUCKETS);
        assertThat(parts.stream().map(ManifestPart::task).collect(Collectors.toSet())).hasSize(BUCKETS);
        IndexTypes types = IndexTypes.load(getClass().getClassLoader());
        long rows = 0;
        for (ManifestPart part : parts) {
            PartStatistics stats = StatisticsCodec.read(part.statsJson(), types).orElseThrow();
            rows += stats.rows();
            Box region = model.region(part.task());
            for (int d = 0; d < 2; d++) {
                ColumnStatistics c = stats.column(d == 0 ? "lat" : "lon").orElseThrow();
                assertThat(region.range(d).contains(ColumnType.DOUBLE, ((Number) c.min()).doubleValue())
                        && region.range(d).contains(ColumnType.DOUBLE, ((Number) c.max()).doubleValue()))
                        .as("part %d %s [%s, %s] inside %s", part.task(), d == 0 ? "lat" : "lon", c.min(), c.max(),
                                region.range(d)).isTrue();
            }
        }
        assertThat(rows).isEqualTo(DATA.readingList().size());
        assertThat(sorted(spark.read().parquet(laid).collectAsList())).isEqualTo(sorted(input.collectAsList()));

        List<GeoQueries.GeoQuery> queries = new GeoQueries(DATA, 9).measureSet(20, 5, 4);
        long readLaid = 0;
        long readPlain = 0;
        long matched = 0;
        for (GeoQueries.GeoQuery q : queries) {
            org.apache.spark.sql.Column filter = functions.col("lat").between(q.minLat(), q.maxLat())
                    .and(functions.col("lon").between(q.minLon(), q.maxLon()));
            Dataset<Row> onLaid = spark.read().parquet(laid).where(filter);
            List<Row> got = onLaid.collectAsList();
            readLaid += DataSkipping.reports(onLaid).get(0).objectsRead();
            Dataset<Row> onPlain = spark.read().parquet(plain).where(filter);
            List<Row> gotPlain = onPlain.collectAsList();
            readPlain += DataSkipping.reports(onPlain).get(0).objectsRead();
            spark.conf().set(SkippingRule.ENABLED, "false");
            try {
                assertThat(sorted(got)).as(filter.toString()).isEqualTo(sorted(spark.read().parquet(laid).where(filter)
                        .collectAsList()));
            } finally {
                spark.conf().unset(SkippingRule.ENABLED);
            }
            assertThat(sorted(gotPlain)).as(filter.toString()).isEqualTo(sorted(got));
            long expected = DATA.readingList().stream().filter(r -> r.lat() >= q.minLat() && r.lat() <= q.maxLat()
                    && r.lon() >= q.minLon() && r.lon() <= q.maxLon()).count();
            assertThat(got).as(filter.toString()).hasSize((int) expected);
            matched += expected;
        }
        System.out.printf(Locale.ROOT, "LayoutWriteTest: %d 5x5 km box queries (%d matching rows of %d): parts read "
                + "per query, k-d tree layout %.2f, arrival order %.2f (of %d)%n", queries.size(), matched,
                DATA.readingList().size(), (double) readLaid / queries.size(), (double) readPlain / queries.size(),
                BUCKETS);
        assertThat(matched).as("the queries match rows").isPositive();
        assertThat(readLaid).isLessThan(readPlain / 4);
    }

    @Test
    void theModelIsSavedBesideTheDatasetInOnePutAndALaterBatchLandsInItsBuckets() throws Exception {
        String dataset = path("reuse");
        LaidOut out = LayoutSpec.kdTree(List.of("lat", "lon"), BUCKETS).sampleRows(1000).seed(3)
                .layOut(frame(DATA, 2));
        out.rows().write().parquet(dataset);
        assertThat(StorkLayouts.find(spark, dataset)).isEmpty();

        Path[] saved = new Path[1];
        assertThat(calls(() -> saved[0] = out.saveModel(dataset))).isEqualTo(Map.of(CallType.PUT, 1L));
        assertThat(saved[0].toString()).isEqualTo(dataset + "/_stork/layout/model.json");
        PartitionerModel loaded = StorkLayouts.load(spark, dataset);
        assertThat(loaded).isEqualTo(out.model());
        assertThat(spark.read().parquet(dataset).count()).as("readers ignore _stork")
                .isEqualTo(DATA.readingList().size());

        GridPocketGenerator later = new GridPocketGenerator(7, 150, START + 8 * GridPocketGenerator.STEP_SECONDS, 8);
        Dataset<Row> batch = frame(later, 3);
        Dataset<Row> laidBatch = StorkLayouts.layOut(batch, loaded);
        assertThat(laidBatch.javaRDD().getNumPartitions()).isEqualTo(BUCKETS);
        assertRoutedByModel(laidBatch, loaded);
        List<List<Double>> lats = laidBatch.select("lat", "lon").javaRDD().glom().collect().stream()
                .map(p -> p.stream().map(r -> r.getDouble(0)).toList()).toList();
        assertThat(lats).allSatisfy(p -> assertThat(p).isSorted());

        LaidOut reused = LayoutSpec.kdTree(List.of("lat", "lon"), BUCKETS).layOutReusing(batch, dataset);
        assertThat(reused.model()).isEqualTo(loaded);
        reused.rows().write().mode("append").parquet(dataset);
        assertThat(spark.read().parquet(dataset).count()).isEqualTo(DATA.readingList().size()
                + later.readingList().size());
        assertThat(LayoutSpec.kdTree(List.of("lat", "lon"), 4).layOut(batch).model().buckets())
                .as("rebuilt on request").isEqualTo(4);
    }

    @Test
    void aKdTreeOverTimeAndPlaceSortsEachBucketByPlaceFirst_soEachMetersReadingsStayTogether() {
        // 40 meters over 200 instants: a bucket of 8 holds about 10 meters over 100 instants.
        GridPocketGenerator data = new GridPocketGenerator(42, 40, START, 200);
        LaidOut out = StorkLayouts.kdTree(frame(data, 2), List.of("date", "lat", "lon"), 8);
        assertThat(out.model().sortColumns()).extracting(io.stork.layout.model.Column::name)
                .as("a bucket holds few meters and many instants").endsWith("date");
        List<String> order = out.model().sortColumns().stream().map(io.stork.layout.model.Column::name).toList();
        // Per partition, each row's sort key in the model's order; every partition must be ascending in it.
        List<List<Object>> keys = out.rows().selectExpr("spark_partition_id() AS p", order.get(0), order.get(1),
                order.get(2)).collectAsList().stream()
                .map(r -> List.<Object>of(r.getInt(0), r.get(1), r.get(2), r.get(3))).toList();
        assertThat(keys).hasSize(data.readingList().size());
        int runs = 1;
        for (int i = 1; i < keys.size(); i++) {
            List<Object> a = keys.get(i - 1);
            List<Object> b = keys.get(i);
            if (a.get(0).equals(b.get(0))) {
                assertThat(compareKeys(a, b)).as("row %d of partition %s after %s", i, b, a).isLessThanOrEqualTo(0);
                runs += a.get(1).equals(b.get(1)) ? 0 : 1;
            } else {
                runs++;
            }
        }
        // Sorted by date first, nearly every row would start a run; by place, a meter's rows in a bucket are one.
        assertThat(runs).as("runs of one %s", order.get(0)).isLessThanOrEqualTo(2 * data.meters().size() + 8);
    }

    /**
     * A relayout reads its rows back in the order of the files read: under a (lat, lon) key, a meter's
     * readings came out of time order. Rows with equal keys are ordered by the other columns, in the schema's
     * order (date first here), whatever order they arrive in.
     */
    @Test
    void rowsWithEqualKeysComeOrderedByTheOtherColumns_whateverOrderTheyArriveIn() {
        GridPocketGenerator data = new GridPocketGenerator(42, 40, START, 50);
        Dataset<Row> shuffled = frame(data, 4).orderBy(functions.rand(3)).repartition(4);
        LaidOut out = StorkLayouts.kdTree(shuffled, List.of("lat", "lon"), 4);
        List<Row> rows = out.rows().selectExpr("spark_partition_id() AS p", "lat", "lon", "date").collectAsList();
        assertThat(rows).hasSize(data.readingList().size());
        int pairs = 0;
        for (int i = 1; i < rows.size(); i++) {
            Row a = rows.get(i - 1);
            Row b = rows.get(i);
            if (a.getInt(0) == b.getInt(0) && a.getDouble(1) == b.getDouble(1) && a.getDouble(2) == b.getDouble(2)) {
                assertThat(b.getLong(3)).as("row %d: %s after %s", i, b, a).isGreaterThan(a.getLong(3));
                pairs++;
            }
        }
        // 40 meters of 50 readings: every reading but each meter's first follows one of its own.
        assertThat(pairs).isEqualTo(40 * 49);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareKeys(List<Object> a, List<Object> b) {
        for (int i = 1; i < a.size(); i++) {
            int c = ((Comparable) a.get(i)).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @Test
    void aGridLayoutGivesOnePartitionPerBucketRoutedByTheGrid() {
        LaidOut out = StorkLayouts.grid(frame(DATA, 2), "lat", "lon", 1, 8);
        assertThat(out.model().kind()).isEqualTo("grid");
        assertThat(out.rows().javaRDD().getNumPartitions()).isEqualTo(8);
        assertRoutedByModel(out.rows(), out.model());
        assertThat(out.rows().count()).isEqualTo(DATA.readingList().size());
    }

    @Test
    void badInputFailsOnOneLine() {
        Dataset<Row> df = frame(new GridPocketGenerator(1, 20, START, 2), 1);
        assertOneLine(() -> StorkLayouts.kdTree(df, List.of("lat", "latt"), 4), "no column 'latt' in the DataFrame");
        assertOneLine(() -> StorkLayouts.kdTree(df, List.of("lat"), 0), "at least one bucket, not 0");
        assertOneLine(() -> StorkLayouts.kdTree(df.limit(0), List.of("lat"), 4), "the DataFrame is empty");
        assertOneLine(() -> StorkLayouts.kdTree(df.withColumn("flag", functions.lit(true)), List.of("flag"), 4),
                "column 'flag' is a boolean, which a layout cannot split on");
        assertOneLine(() -> StorkLayouts.kdTree(df, List.of(), 4), "at least one key column");
        PartitionerModel model = StorkLayouts.kdTree(df, List.of("lat", "lon"), 4).model();
        assertOneLine(() -> StorkLayouts.layOut(df.withColumn("lat", functions.col("lat").cast("string")), model),
                "column 'lat' is a string (string) but the layout model splits it as double");
        assertThatThrownBy(() -> StorkLayouts.load(spark, path("none"))).hasMessageContaining("no layout model at");
    }

    private static void assertOneLine(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
