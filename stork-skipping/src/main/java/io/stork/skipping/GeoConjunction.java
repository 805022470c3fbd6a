package io.stork.skipping;

import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.And;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.index.GeoBoxesIndexType.GeoBoxes;
import io.stork.skipping.spi.ColumnIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A conjunction's ranges on a latitude/longitude pair judged by the pair's {@code geo} boxes: two
 * {@code BETWEEN}s (or {@code stork_geo_box}, which Spark sees as them) each judged alone only see the
 * part's overall bounds, while together they are a box that may fall between the part's clusters of
 * points. Used only when both coordinates are constrained by comparisons (so a row with a null coordinate
 * cannot match); strict bounds are taken as inclusive (a superset); NaN literals rule nothing out.
 */
final class GeoConjunction {

    private GeoConjunction() {
    }

    static boolean allows(And conjunction, PartStatistics part) {
        boolean anyGeo = false;
        for (ColumnStatistics c : part.columns().values()) {
            anyGeo |= c.indexes().containsKey(io.stork.skipping.index.GeoBoxesIndexType.NAME);
        }
        if (!anyGeo) {
            return true; // the common case, at no cost
        }
        Map<String, double[]> ranges = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        List<Predicate> leaves = new ArrayList<>();
        flatten(conjunction, leaves);
        for (Predicate leaf : leaves) {
            if (leaf instanceof Comparison cmp && cmp.literal() instanceof Double v) {
                double[] r = ranges.computeIfAbsent(cmp.column(),
                        c -> new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY});
                switch (cmp.op()) {
                    case EQ -> {
                        r[0] = max(r[0], v);
                        r[1] = min(r[1], v);
                    }
                    case GT, GT_EQ -> r[0] = max(r[0], v);
                    case LT, LT_EQ -> r[1] = min(r[1], v);
                    default -> {
                        // NOT_EQ bounds nothing, but still means the column is not null
                    }
                }
            }
        }
        if (ranges.size() < 2) {
            return true;
        }
        for (Map.Entry<String, double[]> lat : ranges.entrySet()) {
            ColumnStatistics column = part.columns().get(lat.getKey());
            ColumnIndex index = column == null ? null : column.indexes().get(io.stork.skipping.index.GeoBoxesIndexType.NAME);
            if (index instanceof GeoBoxes boxes) {
                double[] lon = ranges.get(boxes.longitude());
                if (lon != null && !boxes.mayHold(lat.getValue()[0], lat.getValue()[1], lon[0], lon[1])) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void flatten(Predicate p, List<Predicate> leaves) {
        if (p instanceof And a) {
            flatten(a.left(), leaves);
            flatten(a.right(), leaves);
        } else {
            leaves.add(p);
        }
    }

    // NaN stays NaN (Math.max/min propagate it), and a NaN bound makes the box rule nothing out.
    private static double max(double a, double b) {
        return Math.max(a, b);
    }

    private static double min(double a, double b) {
        return Math.min(a, b);
    }
}
