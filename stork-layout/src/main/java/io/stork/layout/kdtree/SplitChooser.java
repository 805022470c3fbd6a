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
 * <li>otherwise each candidate scores the decayed weight of the past queries that touch the node's box and
 *     cut it on that column: their range there intersects the box's without containing it, so a split
 *     there can keep the query away from one child;</li>
 * <li>the candidates within the tie tolerance of the best score (all of them when no query touches the
 *     node) are settled by compactness: the smallest summed volume of the two children's boxes, each side
 *     measured as a fraction of the node's extent (ranks for strings), so units do not matter; a
 *     remaining tie goes to the first column in round-robin order.</li>
 * </ol>
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
        double[] score = scores(box);
        double best = candidates.stream().mapToDouble(d -> score[d]).max().orElse(0);
        List<Integer> tied = candidates.stream().filter(d -> score[d] >= best * (1 - tolerance)).toList();
        if (tied.size() == 1) {
            return tied.get(0);
        }
        return mostCompact(rows, box, target, tied);
    }

    /** Per column, the weight of the queries that touch {@code box} and cut it on that column. */
    double[] scores(Box box) {
        double[] score = new double[columns.size()];
        for (Weighted q : history) {
            if (!q.box().intersects(columns, box)) {
                continue;
            }
            for (int d = 0; d < columns.size(); d++) {
                if (q.box().range(d).cuts(columns.get(d).type(), box.range(d))) {
                    score[d] += q.weight();
                }
            }
        }
        return score;
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
