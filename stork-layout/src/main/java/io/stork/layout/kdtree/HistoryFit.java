package io.stork.layout.kdtree;

import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.Range;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How well a whole tree serves a query history, estimated on the sample it was built from. Each past
 * query's shape (its width on every column it bounds on both ends) is moved to {@link #PLACEMENTS} rows of
 * the sample, as a query like it about another place or time would be; at each place the sample rows in the
 * buckets whose boxes it cannot rule out are counted against the rows it selects. The score is that
 * <em>read amplification</em>, averaged over the places and weighted by each query's decayed weight: a
 * small box that reads two buckets for a handful of rows counts as much as a large one, whatever their
 * row counts.
 *
 * <p>It also tells each query's selectivity (the mean share of the sample its shape selects), which the
 * builder uses to weigh small queries up: the greedy split rule sees only the next split, where a small
 * box straddles little, so without that weight the splits that large queries want come first and use up
 * the levels the small ones need further down.
 */
final class HistoryFit {

    /** Places per past query: enough for a stable mean, few enough to score a tree in milliseconds. */
    static final int PLACEMENTS = 8;

    private final List<Column> columns;
    private final List<Object[]> rows;
    private final List<SplitChooser.Weighted> queries;
    /** Per placement: the query it moves, and its bounds per column on the axis (strings: the query's own). */
    private final int[] queryOf;
    private final double[][] lo;
    private final double[][] hi;
    private final boolean[][] bounded;
    /** Sample rows inside each placement; computed with the first tree scored (it does not depend on one). */
    private long[] matched;

    HistoryFit(List<Column> columns, List<SplitChooser.Weighted> queries, List<Object[]> rows) {
        this.columns = columns;
        this.rows = rows;
        this.queries = queries;
        int n = queries.size() * PLACEMENTS;
        int dims = columns.size();
        queryOf = new int[n];
        lo = new double[n][dims];
        hi = new double[n][dims];
        bounded = new boolean[n][dims];
        for (int i = 0; i < queries.size(); i++) {
            // Seeded by the query's position: the same sample and history always give the same places.
            SplittableRandom random = new SplittableRandom(0x5EED_0000L + i);
            for (int j = 0; j < PLACEMENTS; j++) {
                int p = i * PLACEMENTS + j;
                queryOf[p] = i;
                place(p, queries.get(i), rows.get(random.nextInt(rows.size())));
            }
        }
    }

    private void place(int p, SplitChooser.Weighted q, Object[] centre) {
        for (int d = 0; d < columns.size(); d++) {
            ColumnType t = columns.get(d).type();
            Range r = q.box().range(d);
            bounded[p][d] = r.lo() != null || r.hi() != null;
            if (t == ColumnType.STRING) {
                continue;
            }
            double l = r.lo() == null ? Double.NEGATIVE_INFINITY : t.axis(r.lo());
            double h = r.hi() == null ? Double.POSITIVE_INFINITY : t.axis(r.hi());
            if (Double.isFinite(l) && Double.isFinite(h) && centre[d] != null) {
                double half = (h - l) / 2;
                double at = t.axis(centre[d]);
                l = at - half;
                h = at + half;
            }
            lo[p][d] = l;
            hi[p][d] = h;
        }
    }

    /** The weighted mean read amplification of the tree at {@code root}; lower is better. */
    double score(KdNode root) {
        Leaves leaves = new Leaves(KdTreeModel.leavesOf(root));
        if (matched == null) {
            matched = matched(root, leaves);
        }
        double total = 0;
        double weights = 0;
        double[] perQuery = new double[queries.size()];
        for (int p = 0; p < queryOf.length; p++) {
            long read = 0;
            for (int b = 0; b < leaves.size(); b++) {
                if (leaves.touchedBy(p, b)) {
                    read += leaves.rows(b);
                }
            }
            perQuery[queryOf[p]] += (double) read / Math.max(1, matched[p]) / PLACEMENTS;
        }
        for (int i = 0; i < perQuery.length; i++) {
            total += queries.get(i).weight() * perQuery[i];
            weights += queries.get(i).weight();
        }
        return weights > 0 ? total / weights : 0;
    }

    /**
     * The history with each query's weight multiplied by (1 / its selectivity)^{@code power}: 0 leaves it
     * as it is. Needs a tree scored first (the selectivities come with the rows counted).
     */
    List<SplitChooser.Weighted> weighted(double power) {
        if (matched == null) {
            throw new IllegalStateException("score a tree before weighing queries by selectivity");
        }
        double[] share = new double[queries.size()];
        for (int p = 0; p < queryOf.length; p++) {
            share[queryOf[p]] += (double) matched[p] / rows.size() / PLACEMENTS;
        }
        List<SplitChooser.Weighted> out = new ArrayList<>(queries.size());
        for (int i = 0; i < queries.size(); i++) {
            double s = Math.max(share[i], 1.0 / rows.size());
            out.add(new SplitChooser.Weighted(queries.get(i).weight() * Math.pow(1 / s, power), queries.get(i).box()));
        }
        return out;
    }

    /** Rows inside each placement, counted among the rows of the buckets it touches (the others cannot be). */
    private long[] matched(KdNode root, Leaves leaves) {
        List<List<Object[]>> byLeaf = new ArrayList<>();
        for (int i = 0; i < leaves.size(); i++) {
            byLeaf.add(new ArrayList<>());
        }
        for (Object[] row : rows) {
            byLeaf.get(KdTreeModel.leafOf(columns, root, row)).add(row);
        }
        long[] out = new long[queryOf.length];
        for (int p = 0; p < out.length; p++) {
            for (int b = 0; b < leaves.size(); b++) {
                if (leaves.touchedBy(p, b)) {
                    for (Object[] row : byLeaf.get(b)) {
                        if (inside(p, row)) {
                            out[p]++;
                        }
                    }
                }
            }
        }
        return out;
    }

    /** A tree's leaves with their boxes on the axis, converted once per tree rather than per placement. */
    private final class Leaves {
        private final List<KdNode.Leaf> leaves;
        private final double[][] lo;
        private final double[][] hi;

        Leaves(List<KdNode.Leaf> leaves) {
            this.leaves = leaves;
            int dims = columns.size();
            lo = new double[leaves.size()][dims];
            hi = new double[leaves.size()][dims];
            for (int b = 0; b < leaves.size(); b++) {
                if (leaves.get(b).box() == null) {
                    continue;
                }
                for (int d = 0; d < dims; d++) {
                    ColumnType t = columns.get(d).type();
                    Range box = leaves.get(b).box().range(d);
                    if (t != ColumnType.STRING) {
                        lo[b][d] = box.lo() == null ? Double.NEGATIVE_INFINITY : t.axis(box.lo());
                        hi[b][d] = box.hi() == null ? Double.POSITIVE_INFINITY : t.axis(box.hi());
                    }
                }
            }
        }

        int size() {
            return leaves.size();
        }

        long rows(int b) {
            return leaves.get(b).sampleRows();
        }

        /** Whether placement {@code p} cannot rule leaf {@code b} out (a leaf no sample row reached: never). */
        boolean touchedBy(int p, int b) {
            KdNode.Leaf leaf = leaves.get(b);
            if (leaf.box() == null) {
                return false;
            }
            for (int d = 0; d < columns.size(); d++) {
                ColumnType t = columns.get(d).type();
                if (t == ColumnType.STRING) {
                    if (!queries.get(queryOf[p]).box().range(d).intersects(t, leaf.box().range(d))) {
                        return false;
                    }
                } else if (hi[b][d] < HistoryFit.this.lo[p][d] || lo[b][d] > HistoryFit.this.hi[p][d]) {
                    return false;
                }
            }
            return true;
        }
    }

    private boolean inside(int p, Object[] row) {
        for (int d = 0; d < columns.size(); d++) {
            if (!bounded[p][d]) {
                continue;
            }
            ColumnType t = columns.get(d).type();
            if (row[d] == null) {
                return false;
            }
            if (t == ColumnType.STRING) {
                if (!queries.get(queryOf[p]).box().range(d).contains(t, row[d])) {
                    return false;
                }
                continue;
            }
            double v = t.axis(row[d]);
            if (v < lo[p][d] || v > hi[p][d]) {
                return false;
            }
        }
        return true;
    }
}
