package io.stork.layout.kdtree;

import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import io.stork.layout.model.Box;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.HistorySummary;
import io.stork.layout.model.PartitionerModel;
import io.stork.layout.model.Range;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a {@link KdTreeModel} from a sample of rows: each node's rows are split at the median of one
 * column into two sides whose row counts are proportional to the buckets under each (so any bucket count
 * works, not only powers of two), until each node is one bucket.
 *
 * <p>The split column of a node: the one that past queries would straddle least there (see
 * {@link SplitChooser}); ties go to the column whose children's boxes are the most compact; with no
 * history, round-robin by depth. Columns with a single value in a node are never chosen there (a split
 * could not separate anything). With history, the rule is greedy: the tree is built again with the
 * selective queries weighed up ({@link HistoryFit#weighted}) and the whole tree that reads least for what
 * the history's queries select, on the sample, is kept.
 */
public final class KdTreeBuilder {

    /** Exponents of the selectivity weight tried after the plain history (0). */
    private static final double[] SELECTIVITY_POWERS = {1, 2, 3};

    private final List<Column> columns;
    private final int buckets;
    private final QueryHistory history;
    private final long halfLifeMillis;
    private final long nowMillis;
    private final double tieTolerance;

    private KdTreeBuilder(List<Column> columns, int buckets, QueryHistory history, long halfLifeMillis,
                          long nowMillis, double tieTolerance) {
        if (columns == null || columns.isEmpty()) {
            throw new IllegalArgumentException("a k-d tree needs at least one column");
        }
        if (buckets < 1) {
            throw new IllegalArgumentException("a k-d tree needs at least one bucket, not " + buckets);
        }
        if (tieTolerance < 0 || tieTolerance >= 1) {
            throw new IllegalArgumentException("the tie tolerance is a fraction in [0, 1), not " + tieTolerance);
        }
        this.columns = List.copyOf(columns);
        this.buckets = buckets;
        this.history = history;
        this.halfLifeMillis = halfLifeMillis;
        this.nowMillis = nowMillis;
        this.tieTolerance = tieTolerance;
    }

    /** A builder without history (round-robin splits), tie tolerance 0. */
    public static KdTreeBuilder of(List<Column> columns, int buckets) {
        return new KdTreeBuilder(columns, buckets, QueryHistory.empty(), 0, 0, 0.0);
    }

    /**
     * This builder steered by {@code history}: a query that ran {@code halfLife} before {@code now} weighs
     * half as much as one that runs at {@code now}. An empty history keeps the round-robin rule.
     */
    public KdTreeBuilder withHistory(QueryHistory history, Duration halfLife, long nowMillis) {
        if (halfLife.isNegative() || halfLife.isZero()) {
            throw new IllegalArgumentException("the history half-life must be positive, not " + halfLife);
        }
        return new KdTreeBuilder(columns, buckets, history, halfLife.toMillis(), nowMillis, tieTolerance);
    }

    /**
     * Cut weights within this fraction of the highest count as a tie, settled by compactness. The paper's
     * "similar cutting values": decayed weights are rarely exactly equal.
     */
    public KdTreeBuilder withTieTolerance(double tolerance) {
        return new KdTreeBuilder(columns, buckets, history, halfLifeMillis, nowMillis, tolerance);
    }

    public KdTreeModel build(List<Object[]> sample) {
        if (sample == null || sample.isEmpty()) {
            throw new IllegalArgumentException("a k-d tree is built from a sample of rows; the sample is empty");
        }
        List<Object[]> rows = new ArrayList<>(sample.size());
        for (Object[] row : sample) {
            rows.add(PartitionerModel.canonicalKey(columns, row));
        }
        List<SplitChooser.Weighted> queries = weighted();
        long[] valuesPerBucket = new long[columns.size()];
        KdNode root = node(new SplitChooser(columns, queries, tieTolerance), rows, 0, buckets, 0, valuesPerBucket);
        if (!queries.isEmpty() && buckets > 1) {
            // Greedy by node, small queries are under-served (see HistoryFit): the same rule is run again
            // with queries weighed up by their selectivity, and the whole tree that reads least for what
            // the history's queries select is kept.
            HistoryFit fit = new HistoryFit(columns, queries, rows);
            double best = fit.score(root);
            for (double power : SELECTIVITY_POWERS) {
                long[] values = new long[columns.size()];
                KdNode candidate = node(new SplitChooser(columns, fit.weighted(power), tieTolerance), rows, 0, buckets, 0,
                        values);
                double score = fit.score(candidate);
                if (score < best) {
                    best = score;
                    root = candidate;
                    valuesPerBucket = values;
                }
            }
        }
        HistorySummary summary = history.isEmpty() ? HistorySummary.NONE : history.summary(nowMillis, halfLifeMillis);
        return new KdTreeModel(columns, buckets, root, summary, sortColumns(valuesPerBucket));
    }

    /**
     * The key columns by how many distinct values the sample put in its buckets, fewest first (ties in key
     * order): sorting a bucket's rows by them gives the longest runs of equal values, e.g. meters (lat,
     * lon) before time in a tree that also split on time, so each meter's readings stay together.
     */
    private List<Column> sortColumns(long[] valuesPerBucket) {
        List<Integer> order = new ArrayList<>();
        for (int d = 0; d < columns.size(); d++) {
            order.add(d);
        }
        order.sort(java.util.Comparator.comparingLong(d -> valuesPerBucket[d]));
        return order.stream().map(columns::get).toList();
    }

    private KdNode node(SplitChooser chooser, List<Object[]> rows, int firstBucket, int n, int depth,
                        long[] valuesPerBucket) {
        if (n == 1) {
            for (int d = 0; d < columns.size(); d++) {
                int dim = d;
                valuesPerBucket[d] += rows.stream().map(r -> r[dim]).distinct().count();
            }
            return new KdNode.Leaf(firstBucket, rows.size(), rows.isEmpty() ? null : box(columns, rows));
        }
        int leftBuckets = n / 2;
        int target = (int) Math.round(rows.size() * (double) leftBuckets / n);
        int dim = chooser.choose(rows, target, depth);
        List<Object[]> sorted = sortedOn(columns, rows, dim);
        int cut = cutNear(columns.get(dim).type(), sorted, dim, target);
        Object value = cut < sorted.size() ? sorted.get(cut)[dim] : null;
        if (cut == sorted.size()) {
            // No boundary: the node's rows all share one value on every column (or there are none). Split at
            // that value so the tree keeps its shape: the rows go right, the left side takes lower keys only.
            value = sorted.isEmpty() ? null : sorted.get(sorted.size() - 1)[dim];
            cut = sorted.isEmpty() ? 0 : firstIndexOf(columns.get(dim).type(), sorted, dim, value);
        }
        KdNode left = node(chooser, sorted.subList(0, cut), firstBucket, leftBuckets, depth + 1, valuesPerBucket);
        KdNode right = node(chooser, sorted.subList(cut, sorted.size()), firstBucket + leftBuckets, n - leftBuckets,
                depth + 1, valuesPerBucket);
        return new KdNode.Split(dim, value, left, right);
    }

    /** The queries with their weights now, constraints in canonical form; columns not in the key dropped. */
    private List<SplitChooser.Weighted> weighted() {
        List<SplitChooser.Weighted> out = new ArrayList<>();
        for (QueryRecord q : history.queries()) {
            Range[] ranges = new Range[columns.size()];
            boolean any = false;
            for (int d = 0; d < columns.size(); d++) {
                Range r = q.on(columns.get(d).name());
                ranges[d] = r == Range.ALL ? r : r.canonical(columns.get(d));
                any |= r != Range.ALL;
            }
            if (any) {
                out.add(new SplitChooser.Weighted(q.weight(nowMillis, halfLifeMillis), Box.of(ranges)));
            }
        }
        return out;
    }

    static List<Object[]> sortedOn(List<Column> columns, List<Object[]> rows, int dim) {
        ColumnType t = columns.get(dim).type();
        Object[][] a = rows.toArray(new Object[0][]);
        Arrays.sort(a, (x, y) -> t.compare(x[dim], y[dim]));
        return Arrays.asList(a);
    }

    /**
     * The index of the first row of the right side: the boundary between two different values nearest to
     * {@code target}, so equal values never straddle a split (routing is by value). Without any boundary,
     * the size (all rows left).
     */
    static int cutNear(ColumnType t, List<Object[]> sorted, int dim, int target) {
        int size = sorted.size();
        for (int delta = 0; delta < size; delta++) {
            for (int i : new int[] {target - delta, target + delta}) {
                if (i >= 1 && i < size && t.compare(sorted.get(i - 1)[dim], sorted.get(i)[dim]) < 0) {
                    return i;
                }
            }
        }
        return size;
    }

    private static int firstIndexOf(ColumnType t, List<Object[]> sorted, int dim, Object value) {
        int i = 0;
        while (i < sorted.size() && t.compare(sorted.get(i)[dim], value) < 0) {
            i++;
        }
        return i;
    }

    /** Min/max of the rows per column, nulls left out (a column that is all null: open both ends). */
    static Box box(List<Column> columns, List<Object[]> rows) {
        Range[] r = new Range[columns.size()];
        for (int d = 0; d < columns.size(); d++) {
            ColumnType t = columns.get(d).type();
            Object lo = null;
            Object hi = null;
            for (Object[] row : rows) {
                Object v = row[d];
                if (v != null) {
                    lo = lo == null || t.compare(v, lo) < 0 ? v : lo;
                    hi = hi == null || t.compare(v, hi) > 0 ? v : hi;
                }
            }
            r[d] = new Range(lo, hi);
        }
        return Box.of(r);
    }
}
