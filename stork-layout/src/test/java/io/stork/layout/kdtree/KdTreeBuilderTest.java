package io.stork.layout.kdtree;

import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KdTreeBuilderTest {

    private static final List<Column> LAT_LON = List.of(Column.of("lat", ColumnType.DOUBLE),
            Column.of("lon", ColumnType.DOUBLE));
    private static final long NOW = 1_800_000_000_000L;
    private static final Duration DAY = Duration.ofDays(1);

    private static List<Object[]> uniform(int n, long seed) {
        Random r = new Random(seed);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {42 + 9 * r.nextDouble(), -4 + 12 * r.nextDouble()});
        }
        return rows;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 10, 64, 100})
    void bucketsHoldEqualShares_andEveryRowRoutesToTheBucketWhoseBoxHoldsIt(int buckets) {
        List<Object[]> sample = uniform(1000, buckets);
        KdTreeModel model = KdTreeBuilder.of(LAT_LON, buckets).build(sample);

        assertThat(model.leaves()).hasSize(buckets);
        long lo = 1000 / buckets;
        long hi = (1000 + buckets - 1) / buckets;
        assertThat(model.leaves()).allSatisfy(l -> assertThat(l.sampleRows()).isBetween(lo, hi));
        int[] routed = new int[buckets];
        for (Object[] row : sample) {
            int b = model.bucketOf(row);
            routed[b]++;
            assertThat(model.leafBox(b).contains(LAT_LON, row)).isTrue();
            assertThat(model.region(b).contains(LAT_LON, row)).isTrue();
        }
        for (int b = 0; b < buckets; b++) {
            assertThat((long) routed[b]).isEqualTo(model.leaves().get(b).sampleRows());
        }
        // A key the sample never held still lands in the one bucket whose region holds it.
        Object[] far = {89.0, 179.0};
        assertThat(model.region(model.bucketOf(far)).contains(LAT_LON, far)).isTrue();
    }

    @Test
    void duplicatesNeverStraddleASplit_bucketsWithinOneValueRunOfEqual() {
        List<Column> one = List.of(Column.of("v", ColumnType.LONG));
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            sample.add(new Object[] {(long) (i % 10)}); // 10 values, 100 rows each
        }
        KdTreeModel model = KdTreeBuilder.of(one, 4).build(sample);
        // Equal shares are 250; a split sits between two values, so a bucket is off by at most one run (100).
        assertThat(model.leaves()).allSatisfy(l -> assertThat(l.sampleRows()).isBetween(150L, 350L));
        for (Object[] row : sample) {
            assertThat(model.leafBox(model.bucketOf(row)).contains(one, row)).isTrue();
        }
    }

    @Test
    void withoutHistory_splitsRoundRobin() {
        List<Column> three = List.of(Column.of("a", ColumnType.DOUBLE), Column.of("b", ColumnType.DOUBLE),
                Column.of("c", ColumnType.DOUBLE));
        Random r = new Random(1);
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 800; i++) {
            sample.add(new Object[] {r.nextDouble(), r.nextDouble(), r.nextDouble()});
        }
        KdTreeModel model = KdTreeBuilder.of(three, 8).build(sample);
        assertThat(dimsAtDepth(model.root(), 0)).containsOnly(0);
        assertThat(dimsAtDepth(model.root(), 1)).containsOnly(1);
        assertThat(dimsAtDepth(model.root(), 2)).containsOnly(2);
        assertThat(model.history().isEmpty()).isTrue();
    }

    @Test
    void historyThatOnlyConstrainsLon_makesTheTreeSplitOnLonFirst() {
        List<QueryRecord> queries = new ArrayList<>();
        Random r = new Random(2);
        for (int i = 0; i < 50; i++) {
            double lon = -4 + 12 * r.nextDouble();
            queries.add(QueryRecord.of(NOW - i * 60_000L, Map.of("lon", Range.of(lon, lon + 0.1))));
        }
        KdTreeModel model = KdTreeBuilder.of(LAT_LON, 16)
                .withHistory(QueryHistory.of(100, queries), DAY, NOW).build(uniform(2000, 3));

        assertThat(((KdNode.Split) model.root()).dim()).isEqualTo(1);
        // lon is the only column queries cut, so every split where a query reaches is on lon.
        assertThat(dimsAtDepth(model.root(), 1)).containsOnly(1);
        assertThat(model.history().queries()).isEqualTo(50);
        assertThat(model.history().columnWeights()).containsOnlyKeys("lon");
    }

    @Test
    void narrowRangesOnOneColumnAndWideOnesOnAnother_makeTheTreeSplitTheNarrowOneWhereQueriesGo() {
        // Every query cuts both columns, but its time window spans a third of the days while its latitude
        // range is a thousandth of the extent: a split on time is straddled by the windows that reach over
        // it, one on latitude by almost none.
        List<Column> timeLat = List.of(Column.of("t", ColumnType.DOUBLE), Column.of("lat", ColumnType.DOUBLE));
        Random r = new Random(8);
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            sample.add(new Object[] {30 * r.nextDouble(), 42 + 9 * r.nextDouble()});
        }
        List<QueryRecord> queries = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            double t = 20 * r.nextDouble();
            double lat = 42 + 9 * r.nextDouble();
            queries.add(QueryRecord.of(NOW, Map.of("t", Range.of(t, t + 10), "lat", Range.of(lat, lat + 0.01))));
        }
        KdTreeModel model = KdTreeBuilder.of(timeLat, 16).withHistory(QueryHistory.of(1000, queries), DAY, NOW)
                .build(sample);
        long latSplits = 0;
        long timeSplits = 0;
        java.util.ArrayDeque<KdNode> todo = new java.util.ArrayDeque<>(List.of(model.root()));
        while (!todo.isEmpty()) {
            if (todo.pop() instanceof KdNode.Split split) {
                if (split.dim() == 1) {
                    latSplits++;
                } else {
                    timeSplits++;
                }
                todo.push(split.left());
                todo.push(split.right());
            }
        }
        assertThat(((KdNode.Split) model.root()).dim()).as("round-robin would start with t").isEqualTo(1);
        assertThat(latSplits).as("of 15 splits, %d on time", timeSplits).isGreaterThanOrEqualTo(13);
    }

    @Test
    void oneQueryHereDoesNotOutvoteTheShapesOfManyAboutOtherPlaces() {
        // 100 past queries, narrow on a and wide on b, all about a region with no rows (a > 2): no node is
        // touched by them, but their shape says a split on a is rarely straddled. One query inside the data,
        // wide on a and narrow on b, straddles a's median and not b's. Alone it would pick b; weighed against
        // the shapes (as LOCAL_PRIOR queries' worth), a wins.
        List<Column> ab = List.of(Column.of("a", ColumnType.DOUBLE), Column.of("b", ColumnType.DOUBLE));
        Random r = new Random(12);
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            sample.add(new Object[] {r.nextDouble(), r.nextDouble()});
        }
        List<QueryRecord> elsewhere = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            double a = 2 + r.nextDouble();
            elsewhere.add(QueryRecord.of(NOW, Map.of("a", Range.of(a, a + 0.01), "b", Range.of(0.2, 0.7))));
        }
        QueryRecord here = QueryRecord.of(NOW, Map.of("a", Range.of(0.1, 0.9), "b", Range.of(0.1, 0.12)));

        KdTreeModel aloneHere = KdTreeBuilder.of(ab, 2).withHistory(QueryHistory.of(1000, List.of(here)), DAY, NOW)
                .build(sample);
        assertThat(((KdNode.Split) aloneHere.root()).dim()).isEqualTo(1);
        List<QueryRecord> all = new ArrayList<>(elsewhere);
        all.add(here);
        KdTreeModel withShapes = KdTreeBuilder.of(ab, 2).withHistory(QueryHistory.of(1000, all), DAY, NOW)
                .build(sample);
        assertThat(((KdNode.Split) withShapes.root()).dim()).isEqualTo(0);
    }

    @Test
    void bucketsSortByTheColumnsWithFewestValuesPerBucketFirst() {
        // Meters (lat, lon) over time: a tree that splits on date too still holds few meters per bucket and
        // many instants, so its buckets sort by (lat, lon) before date and each meter's readings stay together.
        List<Column> key = List.of(Column.of("date", ColumnType.LONG), Column.of("lat", ColumnType.DOUBLE),
                Column.of("lon", ColumnType.DOUBLE));
        Random r = new Random(4);
        double[][] meters = new double[60][];
        for (int m = 0; m < meters.length; m++) {
            meters[m] = new double[] {42 + 9 * r.nextDouble(), -4 + 12 * r.nextDouble()};
        }
        List<Object[]> sample = new ArrayList<>();
        for (long t = 0; t < 300; t++) {
            for (double[] m : meters) {
                sample.add(new Object[] {t * 900, m[0], m[1]});
            }
        }
        KdTreeModel model = KdTreeBuilder.of(key, 8).build(sample);
        assertThat(dimsAtDepth(model.root(), 0)).containsOnly(0);
        assertThat(model.sortColumns()).extracting(Column::name).endsWith("date");
        assertThat(model.sortColumns()).containsExactlyInAnyOrderElementsOf(key);
    }

    @Test
    void recentQueriesOutweighOlderOnes() {
        List<QueryRecord> queries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queries.add(QueryRecord.of(NOW - 30 * DAY.toMillis(), Map.of("lat", Range.of(44.0, 44.5))));
        }
        for (int i = 0; i < 3; i++) {
            queries.add(QueryRecord.of(NOW, Map.of("lon", Range.of(0.0, 0.5))));
        }
        QueryHistory history = QueryHistory.of(100, queries);
        List<Object[]> sample = uniform(1000, 4);

        KdTreeModel shortMemory = KdTreeBuilder.of(LAT_LON, 2).withHistory(history, DAY, NOW).build(sample);
        KdTreeModel longMemory = KdTreeBuilder.of(LAT_LON, 2).withHistory(history, Duration.ofDays(3650), NOW)
                .build(sample);

        assertThat(((KdNode.Split) shortMemory.root()).dim()).isEqualTo(1);
        assertThat(((KdNode.Split) longMemory.root()).dim()).isEqualTo(0);
    }

    @Test
    void equalCutsGoToTheMostCompactSplit() {
        // z follows x; y is independent of both. Splitting on x also halves z's extent in each child, so the
        // children's boxes are half the volume of a split on y. x and y take the same values (a lattice, in two
        // orders), so queries of one width on either straddle their medians equally often.
        List<Column> yxz = List.of(Column.of("y", ColumnType.DOUBLE), Column.of("x", ColumnType.DOUBLE),
                Column.of("z", ColumnType.DOUBLE));
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            double x = i / 1000.0;
            sample.add(new Object[] {(i * 7919 % 1000) / 1000.0, x, x + 0.0001 * (i % 7)});
        }
        // Every query straddles the median of y and of x (windows of the same width), and of z, which it leaves
        // free: a tie. Splitting on x or on z (which follows x) shrinks the other's extent too: either is more
        // compact than y.
        List<QueryRecord> tie = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            tie.add(QueryRecord.of(NOW, Map.of("x", Range.of(0.25, 0.75), "y", Range.of(0.2, 0.7))));
        }
        KdTreeModel tied = KdTreeBuilder.of(yxz, 2).withHistory(QueryHistory.of(100, tie), DAY, NOW).build(sample);
        assertThat(((KdNode.Split) tied.root()).dim()).isIn(1, 2);

        // One more query, on y alone and below its median, breaks the tie: it straddles x and z, not y. (As wide
        // as the others, so that weighing selective queries up does not make it more than one more query.)
        // Without history, round-robin starts at y.
        List<QueryRecord> moreY = new ArrayList<>(tie);
        moreY.add(QueryRecord.of(NOW, Map.of("y", Range.of(0.0, 0.45))));
        KdTreeModel yWins = KdTreeBuilder.of(yxz, 2).withHistory(QueryHistory.of(100, moreY), DAY, NOW).build(sample);
        assertThat(((KdNode.Split) yWins.root()).dim()).isEqualTo(0);
        assertThat(((KdNode.Split) KdTreeBuilder.of(yxz, 2).build(sample).root()).dim()).isEqualTo(0);

        // Within a 10% tolerance the extra query is still "similar": compactness decides again.
        KdTreeModel tolerant = KdTreeBuilder.of(yxz, 2).withTieTolerance(0.1)
                .withHistory(QueryHistory.of(100, moreY), DAY, NOW).build(sample);
        assertThat(((KdNode.Split) tolerant.root()).dim()).isIn(1, 2);
    }

    @Test
    void stringsAndTimestampsSplitByTheirOrder() {
        List<Column> cols = List.of(Column.of("city", ColumnType.STRING), Column.of("at", ColumnType.TIMESTAMP));
        Random r = new Random(6);
        List<Object[]> sample = new ArrayList<>();
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < 1200; i++) {
            String city = String.valueOf((char) ('a' + r.nextInt(26))) + (char) ('a' + r.nextInt(26));
            sample.add(new Object[] {city, start.plusSeconds(r.nextInt(86_400 * 30))});
        }
        List<QueryRecord> onCity = List.of(QueryRecord.of(NOW, Map.of("city", Range.of("f", "g"))));
        KdTreeModel byCity = KdTreeBuilder.of(cols, 6).withHistory(QueryHistory.of(10, onCity), DAY, NOW)
                .build(sample);
        KdTreeModel byTime = KdTreeBuilder.of(List.of(cols.get(1)), 6).build(
                sample.stream().map(row -> new Object[] {row[1]}).toList());

        assertThat(((KdNode.Split) byCity.root()).dim()).isEqualTo(0);
        List<Object[]> byName = new ArrayList<>(sample);
        byName.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
        // Within the root's halves, lower names never land right of higher ones.
        int rootCut = byCity.leaves().size() / 2;
        for (int i = 1; i < byName.size(); i++) {
            boolean prevLeft = byCity.bucketOf(byName.get(i - 1)) < rootCut;
            boolean thisLeft = byCity.bucketOf(byName.get(i)) < rootCut;
            assertThat(prevLeft || !thisLeft).isTrue();
        }
        List<Instant> times = sample.stream().map(row -> (Instant) row[1]).sorted().toList();
        int last = 0;
        for (Instant t : times) {
            int b = byTime.bucketOf(new Object[] {t});
            assertThat(b).isGreaterThanOrEqualTo(last);
            last = b;
            long micros = t.getEpochSecond() * 1_000_000L;
            assertThat(byTime.bucketOf(new Object[] {micros})).isEqualTo(b);
        }
        assertThat(byTime.leaves()).allSatisfy(l -> assertThat(l.sampleRows()).isBetween(199L, 201L));
    }

    @Test
    void badInputFailsWithOneLine() {
        assertThatThrownBy(() -> KdTreeBuilder.of(LAT_LON, 0)).hasMessage("a k-d tree needs at least one bucket, not 0");
        assertThatThrownBy(() -> KdTreeBuilder.of(LAT_LON, 4).build(List.of()))
                .hasMessage("a k-d tree is built from a sample of rows; the sample is empty");
        assertThatThrownBy(() -> KdTreeBuilder.of(List.of(), 4)).hasMessage("a k-d tree needs at least one column");
        KdTreeModel model = KdTreeBuilder.of(LAT_LON, 4).build(uniform(100, 7));
        assertThatThrownBy(() -> model.bucketOf(new Object[] {1.0}))
                .hasMessage("a key of 2 values [lat, lon] was expected, not 1");
        assertThatThrownBy(() -> model.bucketOf(new Object[] {"x", 1.0}))
                .hasMessage("column 'lat' of type double cannot hold a java.lang.String (x)");
        assertThatThrownBy(() -> ColumnType.fromJsonName("decimal"))
                .hasMessage("unknown column type 'decimal' (long, double, timestamp, string)");
    }

    private static List<Integer> dimsAtDepth(KdNode n, int depth) {
        List<Integer> out = new ArrayList<>();
        collect(n, depth, out);
        return out;
    }

    private static void collect(KdNode n, int depth, List<Integer> out) {
        if (n instanceof KdNode.Split s) {
            if (depth == 0) {
                out.add(s.dim());
            } else {
                collect(s.left(), depth - 1, out);
                collect(s.right(), depth - 1, out);
            }
        }
    }
}
