package io.stork.layout.kdtree;

import io.stork.layout.model.Box;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.Range;

import java.util.ArrayList;
import java.util.List;

/**
 * The split rule of a node (the paper's "query driven" method, refined by "metadata compactness"):
 * <ol>
 * <li>only columns with at least two values among the node's rows are candidates;</li>
 * <li>with no history, round-robin by depth (the canonical k-d tree);</li>
 * <li>otherwise each candidate is scored by the share of queries that would <em>straddle</em> a split at
 *     its median (their range on that column reaches both sides, so they read both children); the lowest
 *     share wins. Two estimates of that share are blended:
 *     <ul>
 *     <li>where past queries touched the node's box: the decayed weight of those that straddle it (the
 *         history's own places: hot regions keep their own shape);</li>
 *     <li>everywhere: the history's query <em>shapes</em> moved over the node's rows. A query of width w
 *         on a column, centred on a row, straddles the split when that row lies within w/2 of the split
 *         value; so its chance is the share of the node's rows in that band. This is what a query like a
 *         past one, but about another place, would do (a box around another meter); it weighs the
 *         density near the split (a city on the median straddles more) and never runs out of evidence deep
 *         in the tree, where few past queries touched a node;</li>
 *     </ul>
 *     the local count counts as {@value #LOCAL_PRIOR} queries' worth of the shape estimate, so a few
 *     touches do not decide alone. A query that leaves a column free straddles every split on it;</li>
 * <li>the candidates whose share is within the tie tolerance of the lowest are settled by compactness:
 *     the smallest summed volume of the two children's boxes, each side measured as a fraction of the
 *     node's extent (ranks for strings), so units do not matter; a remaining tie goes to the first column
 *     in round-robin order.</li>
 * </ol>
 * Greedy by node, this keeps splitting space while the cells are wide against the boxes queries ask for,
 * and turns to time in dense cities where a day's window straddles less than a box does.
 */
final class SplitChooser {

    /** How many queries' worth the shape estimate counts against the queries that touched a node. */
    static final double LOCAL_PRIOR = 8;

    record Weighted(double weight, Box box) {
    }

    private final List<Column> columns;
    private final List<Weighted> history;
    private final double tolerance;
    private final double totalWeight;

    SplitChooser(List<Column> columns, List<Weighted> history, double tolerance) {
        this.columns = columns;
        this.history = history;
        this.tolerance = tolerance;
        this.totalWeight = history.stream().mapToDouble(Weighted::weight).sum();
    }

    int choose(List<Object[]> rows, int target, int depth) {
        int dims = columns.size();
        Box box = rows.isEmpty() ? null : KdTreeBuilder.box(columns, rows);
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < dims; i++) {
            int d = (depth + i) % dims;
            if (box != null && distinct(columns.get(d).type(), box.range(d))) {
                candidates.add(d);
            }
        }
        if (candidates.isEmpty()) {
            return depth % dims;
        }
        if (history.isEmpty() || totalWeight <= 0 || candidates.size() == 1) {
            return candidates.get(0);
        }
        // Which past queries touch this node does not depend on the candidate: judged once per node.
        boolean[] touching = new boolean[history.size()];
        for (int i = 0; i < touching.length; i++) {
            touching[i] = history.get(i).box().intersects(columns, box);
        }
        double[] cost = new double[dims];
        for (int d : candidates) {
            List<Object[]> sorted = KdTreeBuilder.sortedOn(columns, rows, d);
            int cut = KdTreeBuilder.cutNear(columns.get(d).type(), sorted, d, target);
            cost[d] = cost(touching, sorted, d, cut < sorted.size() ? sorted.get(cut)[d] : null);
        }
        double best = candidates.stream().mapToDouble(d -> cost[d]).min().orElse(0);
        List<Integer> tied = candidates.stream().filter(d -> cost[d] <= best * (1 + tolerance) + 1e-12).toList();
        if (tied.size() == 1) {
            return tied.get(0);
        }
        return mostCompact(rows, box, target, tied);
    }

    /**
     * The blended share of queries that straddle a split of the node (its rows sorted on column
     * {@code d}; {@code touching[i]}: whether past query i touches the node's box) at {@code split}; 0 when
     * there is no boundary (every row on one side).
     */
    double cost(boolean[] touching, List<Object[]> sorted, int d, Object split) {
        if (split == null) {
            return 0;
        }
        ColumnType t = columns.get(d).type();
        double[] axis = t == ColumnType.STRING ? null : axis(t, sorted, d);
        double at = axis == null ? 0 : t.axis(split);
        double local = 0;
        double localWeight = 0;
        double shape = 0;
        for (int i = 0; i < history.size(); i++) {
            Weighted q = history.get(i);
            Range r = q.box().range(d);
            shape += q.weight() * bandShare(t, r, axis, at);
            if (touching[i]) {
                localWeight += q.weight();
                local += straddles(t, r, split) ? q.weight() : 0;
            }
        }
        double prior = LOCAL_PRIOR * totalWeight / history.size();
        return (local + prior * shape / totalWeight) / (localWeight + prior);
    }

    private static double[] axis(ColumnType t, List<Object[]> sorted, int d) {
        double[] a = new double[sorted.size()];
        for (int i = 0; i < a.length; i++) {
            Object v = sorted.get(i)[d];
            a[i] = v == null ? Double.NEGATIVE_INFINITY : t.axis(v);
        }
        return a;
    }

    /**
     * The chance that a query of {@code q}'s width on this column, centred on one of the node's rows,
     * straddles the split at {@code at}: the share of rows within half that width of it. Strings have no
     * width: a point never straddles, a range is taken to.
     */
    private static double bandShare(ColumnType t, Range q, double[] axis, double at) {
        if (q.lo() == null || q.hi() == null) {
            return 1;
        }
        if (axis == null) {
            return t.compare(q.lo(), q.hi()) == 0 ? 0 : 1;
        }
        double half = (t.axis(q.hi()) - t.axis(q.lo())) / 2;
        if (!Double.isFinite(half)) {
            return 1;
        }
        if (half <= 0) {
            return 0;
        }
        int from = firstAtLeast(axis, at - half);
        int to = firstAtLeast(axis, Math.nextUp(at + half));
        return (double) (to - from) / axis.length;
    }

    private static int firstAtLeast(double[] sorted, double v) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Whether [lo, hi] reaches below the split value (left: keys below it) and at or above it (right). */
    private static boolean straddles(ColumnType t, Range q, Object split) {
        boolean left = q.lo() == null || t.compare(q.lo(), split) < 0;
        boolean right = q.hi() == null || t.compare(q.hi(), split) >= 0;
        return left && right;
    }

    private int mostCompact(List<Object[]> rows, Box box, int target, List<Integer> tied) {
        int best = tied.get(0);
        double bestVolume = Double.POSITIVE_INFINITY;
        for (int d : tied) {
            List<Object[]> sorted = KdTreeBuilder.sortedOn(columns, rows, d);
            int cut = KdTreeBuilder.cutNear(columns.get(d).type(), sorted, d, target);
            double v = volume(rows, box, sorted.subList(0, cut)) + volume(rows, box, sorted.subList(cut, sorted.size()));
            if (v < bestVolume) {
                bestVolume = v;
                best = d;
            }
        }
        return best;
    }

    /** The volume of the box of {@code part}, each side a fraction of the node's extent there. */
    private double volume(List<Object[]> all, Box node, List<Object[]> part) {
        if (part.isEmpty()) {
            return 0;
        }
        Box b = KdTreeBuilder.box(columns, part);
        double v = 1;
        for (int d = 0; d < columns.size(); d++) {
            v *= fraction(all, d, node.range(d), b.range(d));
        }
        return v;
    }

    private double fraction(List<Object[]> all, int d, Range node, Range part) {
        ColumnType t = columns.get(d).type();
        if (!distinct(t, node) || part.lo() == null) {
            return 1;
        }
        if (t == ColumnType.STRING) {
            // Strings have no distance: measure by how many of the node's distinct values the side spans.
            List<Object> values = all.stream().map(r -> r[d]).filter(v -> v != null).distinct()
                    .sorted(t.order()).toList();
            int lo = values.indexOf(part.lo());
            int hi = values.indexOf(part.hi());
            return (double) (hi - lo) / (values.size() - 1);
        }
        double extent = t.axis(node.hi()) - t.axis(node.lo());
        double f = (t.axis(part.hi()) - t.axis(part.lo())) / extent;
        return Double.isFinite(f) ? f : 1;
    }

    private static boolean distinct(ColumnType t, Range r) {
        return r.lo() != null && t.compare(r.lo(), r.hi()) < 0;
    }
}
