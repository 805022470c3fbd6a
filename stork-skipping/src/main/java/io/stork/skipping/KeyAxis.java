package io.stork.skipping;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One key column as {@link LayoutSeparation} measures it. Its distinct bounds, sorted, cut the column's key
 * space into pieces: piece 2i is the i-th bound itself, piece 2i + 1 the open gap after it; each part's
 * range is a run of pieces. A piece weighs what it holds: for integers, dates and timestamps the values
 * in it (1 for a bound, b − a − 1 for the gap from a to b); for doubles and decimals its length (0 for a
 * bound); for strings and booleans, which have no distance, 1 each (ranks). Doubles with an infinite bound,
 * and columns whose parts' ranges have no length at all (each part one value), are weighed by rank too.
 * Disjoint ranges share no piece, so their overlap is exactly 1 whatever the weights.
 */
final class KeyAxis {

    private final int[] lo;             // per part: its first piece, -1 without bounds
    private final int[] hi;             // per part: its last piece
    private final double[] cumulative;  // cumulative[k]: the weight of pieces 0 to k - 1
    private final boolean byValue;

    private KeyAxis(int[] lo, int[] hi, double[] cumulative, boolean byValue) {
        this.lo = lo;
        this.hi = hi;
        this.cumulative = cumulative;
        this.byValue = byValue;
    }

    /** The axis of parts whose minimum is {@code lows[p]} (null without bounds) and maximum {@code highs[p]}. */
    static KeyAxis of(ColumnType type, Object[] lows, Object[] highs) {
        Comparator<Object> order = order(type);
        List<Object> bounds = new ArrayList<>();
        for (int p = 0; p < lows.length; p++) {
            if (lows[p] != null) {
                bounds.add(lows[p]);
                bounds.add(highs[p]);
            }
        }
        Object[] distinct = bounds.toArray();
        Arrays.sort(distinct, order); // O(n log n): the only super-linear step
        int m = 0;
        for (Object bound : distinct) {
            if (m == 0 || order.compare(distinct[m - 1], bound) != 0) {
                distinct[m++] = bound;
            }
        }
        int[] lo = new int[lows.length];
        int[] hi = new int[lows.length];
        for (int p = 0; p < lows.length; p++) {
            lo[p] = lows[p] == null ? -1 : 2 * Arrays.binarySearch(distinct, 0, m, lows[p], order);
            hi[p] = lows[p] == null ? -1 : 2 * Arrays.binarySearch(distinct, 0, m, highs[p], order);
        }
        double[] byValue = valueWeights(type, distinct, m);
        if (byValue != null) {
            KeyAxis axis = new KeyAxis(lo, hi, byValue, true);
            if (axis.unionWeight() > 0) {
                return axis;
            }
        }
        return new KeyAxis(lo, hi, rankWeights(Math.max(0, 2 * m - 1)), false);
    }

    /** The same ranges weighed by rank. */
    KeyAxis ranked() {
        return byValue ? new KeyAxis(lo, hi, rankWeights(pieces()), false) : this;
    }

    private static double[] rankWeights(int pieces) {
        double[] cumulative = new double[pieces + 1];
        for (int k = 1; k < cumulative.length; k++) {
            cumulative[k] = k;
        }
        return cumulative;
    }

    /** Cumulative weights by value, or null where the type has no distance or a bound is infinite. */
    private static double[] valueWeights(ColumnType type, Object[] distinct, int m) {
        if (type != ColumnType.LONG && type != ColumnType.DOUBLE && type != ColumnType.DECIMAL || m == 0) {
            return null;
        }
        double[] cumulative = new double[2 * m];
        for (int i = 0; i < m; i++) {
            double point = type == ColumnType.LONG ? 1 : 0;
            cumulative[2 * i + 1] = cumulative[2 * i] + point;
            if (i + 1 < m) {
                double gap = switch (type) {
                    case LONG -> (double) (Long) distinct[i + 1] - (double) (Long) distinct[i] - 1;
                    case DOUBLE -> (Double) distinct[i + 1] - (Double) distinct[i];
                    default -> ((BigDecimal) distinct[i + 1]).subtract((BigDecimal) distinct[i]).doubleValue();
                };
                if (!Double.isFinite(gap)) {
                    return null;
                }
                cumulative[2 * i + 2] = cumulative[2 * i + 1] + gap;
            }
        }
        return cumulative;
    }

    int parts() {
        return lo.length;
    }

    boolean hasBounds(int part) {
        return lo[part] >= 0;
    }

    int first(int part) {
        return lo[part];
    }

    int last(int part) {
        return hi[part];
    }

    int pieces() {
        return cumulative.length - 1;
    }

    double pieceWeight(int piece) {
        return cumulative[piece + 1] - cumulative[piece];
    }

    /** The share of the column's extent {@code part}'s range covers. */
    double share(int part) {
        return (cumulative[hi[part] + 1] - cumulative[lo[part]]) / cumulative[pieces()];
    }

    boolean byValue() {
        return byValue;
    }

    /** The column's figures: the parts' ranges' weights summed, over the weight some range covers. */
    LayoutSeparation.ColumnSeparation separation(String name) {
        long count = Arrays.stream(lo).filter(l -> l >= 0).count();
        if (count == 0) {
            return new LayoutSeparation.ColumnSeparation(name, 0, Double.NaN, Double.NaN, false);
        }
        double total = 0;
        double shares = 0;
        for (int p = 0; p < lo.length; p++) {
            if (lo[p] >= 0) {
                total += cumulative[hi[p] + 1] - cumulative[lo[p]];
                shares += share(p);
            }
        }
        return new LayoutSeparation.ColumnSeparation(name, count, total / unionWeight(), shares / count, byValue);
    }

    /** The weight of the pieces some range covers: the ranges sorted by start, and one sweep merging them. */
    private double unionWeight() {
        long[] ranges = new long[lo.length];
        int count = 0;
        for (int p = 0; p < lo.length; p++) {
            if (lo[p] >= 0) {
                ranges[count++] = (long) lo[p] << 32 | hi[p];
            }
        }
        Arrays.sort(ranges, 0, count);
        double covered = 0;
        int runStart = -1;
        int runEnd = -2;
        for (int i = 0; i < count; i++) {
            int start = (int) (ranges[i] >>> 32);
            int end = (int) ranges[i];
            if (start > runEnd) {
                covered += runEnd < 0 ? 0 : cumulative[runEnd + 1] - cumulative[runStart];
                runStart = start;
                runEnd = end;
            } else {
                runEnd = Math.max(runEnd, end);
            }
        }
        return covered + (runEnd < 0 ? 0 : cumulative[runEnd + 1] - cumulative[runStart]);
    }

    /** Spark's order, with a string maximum cut to a prefix standing for where it may reach. */
    private static Comparator<Object> order(ColumnType type) {
        return (a, b) -> {
            if (a instanceof PrefixAbove pa) {
                return b instanceof PrefixAbove pb ? pa.compareTo(pb) : pa.compareTo((String) b);
            }
            return b instanceof PrefixAbove pb ? -pb.compareTo((String) a) : Values.compare(type, a, b);
        };
    }

    /** The least string above every string that starts with {@code prefix}: where a prefix maximum may reach. */
    record PrefixAbove(String prefix) {

        int compareTo(String s) {
            return s.startsWith(prefix) ? 1 : Values.compareUtf8(prefix, s);
        }

        int compareTo(PrefixAbove other) {
            if (prefix.equals(other.prefix)) {
                return 0;
            }
            if (other.prefix.startsWith(prefix)) {
                return 1; // a longer prefix's bound lies below: it is one of the strings starting with ours
            }
            return prefix.startsWith(other.prefix) ? -1 : Values.compareUtf8(prefix, other.prefix);
        }
    }
}
