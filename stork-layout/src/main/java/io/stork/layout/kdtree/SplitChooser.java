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
 * <li>otherwise each candidate is scored by what a split there costs past queries: the decayed weight of
 *     the queries that touch the node's box and <em>straddle</em> the candidate's split value (their range
 *     on that column reaches both sides, so they would read both children). The lowest cost wins: a split
 *     that keeps most queries to one side. A query that leaves the column free straddles every split on it.
 *     When no past query touches the node (deep in a region nobody asked about), each query counts as if
 *     it were moved over the node: its chance to straddle is its width on the column over the node's
 *     extent there (1 for a free column);</li>
 * <li>the candidates whose cost is within the tie tolerance of the lowest (all of them when every cost is
 *     zero) are settled by compactness: the smallest summed volume of the two children's boxes, each side
 *     measured as a fraction of the node's extent (ranks for strings), so units do not matter; a remaining
 *     tie goes to the first column in round-robin order.</li>
 * </ol>
 * Straddling rather than merely cutting the box is what tells dimensions apart: a 5 km box and a one-day
 * window both cut a region of France over a week, but a split of it at the median latitude is straddled by
 * a fraction of the box queries while a split at the median day is straddled by every window that spans it.
 */
final class SplitChooser {

    record Weighted(double weight, Box box) {
    }

    private final List<Column> columns;
    private final List<Weighted> history;
    private final double tolerance;

    SplitChooser(List<Column> columns, List<Weighted> history, double tolerance) {
        this.columns = columns;
        this.history = history;
        this.tolerance = tolerance;
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
        if (history.isEmpty() || candidates.size() == 1) {
            return candidates.get(0);
        }
        Object[] splits = new Object[dims];
        for (int d : candidates) {
            List<Object[]> sorted = KdTreeBuilder.sortedOn(columns, rows, d);
            int cut = KdTreeBuilder.cutNear(columns.get(d).type(), sorted, d, target);
            splits[d] = cut < sorted.size() ? sorted.get(cut)[d] : null;
        }
        double[] cost = costs(box, splits, candidates);
        double best = candidates.stream().mapToDouble(d -> cost[d]).min().orElse(0);
        List<Integer> tied = candidates.stream().filter(d -> cost[d] <= best * (1 + tolerance)).toList();
        if (tied.size() == 1) {
            return tied.get(0);
        }
        return mostCompact(rows, box, target, tied);
    }

    /**
     * Per candidate column, the weight of the queries touching {@code box} that straddle its split value;
     * when none touches, each query's chance to straddle if it were moved over the node.
     */
    double[] costs(Box box, Object[] splits, List<Integer> candidates) {
        double[] cost = new double[columns.size()];
        boolean touched = false;
        for (Weighted q : history) {
            if (!q.box().intersects(columns, box)) {
                continue;
            }
            touched = true;
            for (int d : candidates) {
                if (straddles(columns.get(d).type(), q.box().range(d), splits[d])) {
                    cost[d] += q.weight();
                }
            }
        }
        if (!touched) {
            for (Weighted q : history) {
                for (int d : candidates) {
                    cost[d] += q.weight() * widthOver(columns.get(d).type(), q.box().range(d), box.range(d));
                }
            }
        }
        return cost;
    }

    /** Whether [lo, hi] reaches below the split value (left: keys below it) and at or above it (right). */
    private static boolean straddles(ColumnType t, Range q, Object split) {
        if (split == null) {
            return false; // no boundary: every row on one side
        }
        boolean left = q.lo() == null || t.compare(q.lo(), split) < 0;
        boolean right = q.hi() == null || t.compare(q.hi(), split) >= 0;
        return left && right;
    }

    /** A query's width on a column as a share of the node's extent there, at most 1 (1 when unbounded). */
    private static double widthOver(ColumnType t, Range q, Range node) {
        if (q.lo() == null || q.hi() == null || node.lo() == null) {
            return 1;
        }
        if (t == ColumnType.STRING) {
            return t.compare(q.lo(), q.hi()) == 0 ? 0 : 1; // no distance between strings: a point or not
        }
        double extent = t.axis(node.hi()) - t.axis(node.lo());
        double w = (t.axis(q.hi()) - t.axis(q.lo())) / extent;
        return Double.isFinite(w) ? Math.max(0, Math.min(1, w)) : 1;
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
