package io.stork.skipping;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * How well the parts' min/max boxes over some key columns separate: what a layout is for. Per column and
 * for the box over all of them, the <em>overlap</em> is how many parts' ranges a point of the key space
 * lies in on average, over the points some part covers (1 = disjoint, N = every part covers everything),
 * and the <em>span</em> the mean share of the dataset's extent one part covers.
 *
 * <p>The key space is counted by rank, not distance, so that strings, timestamps and doubles with
 * infinities are measured alike and units do not matter: per column, each distinct bound and each gap
 * between two consecutive bounds is one point. Disjoint ranges stay disjoint under ranks (overlap exactly
 * 1), identical ones identical (exactly N). A string maximum cut to a prefix P stands for the least string
 * above all that start with P, where the true maximum may lie.
 *
 * <p>Cost: per column a sort of its 2n bounds and a sweep of the ranges (O(n log n)); the box counts its
 * parts in a grid of the columns' points (a difference array, O(n 2<sup>d</sup> + cells)), exact while the
 * grid fits {@link #MAX_CELLS} cells, past that on quantile cells with each box widened to the cells it
 * touches ({@link #boxExact()} false). Memory: the bounds of the key columns, and the grid.
 *
 * @param columns   the key columns
 * @param parts     parts offered
 * @param boxParts  parts with min/max on every key column, which the box figures are over
 * @param perColumn per key column, over the parts with min/max on it
 * @param overlap   the box's overlap (NaN when no part has a box, or past {@link #MAX_BOX_COLUMNS} columns)
 * @param span      the mean share of the extent's volume one box covers (NaN likewise)
 * @param boxExact  whether the box's overlap was counted on every point, not on coarser cells
 */
public record LayoutSeparation(List<String> columns, long parts, long boxParts, List<ColumnSeparation> perColumn,
                               double overlap, double span, boolean boxExact) {

    /** Grid cells the box is counted in: 4 MiB of counters. */
    public static final int MAX_CELLS = 1 << 20;
    /** Past this many key columns the box is not counted (a difference array updates 2^d corners per box). */
    public static final int MAX_BOX_COLUMNS = 8;

    public LayoutSeparation {
        columns = List.copyOf(columns);
        perColumn = List.copyOf(perColumn);
    }

    /** Parts without min/max on some key column (no statistics, the column not indexed, or only nulls). */
    public long withoutBounds() {
        return parts - boxParts;
    }

    /**
     * One key column's separation.
     *
     * @param column  its name
     * @param parts   parts with min/max on it
     * @param overlap how many of them a point of the column's range lies in on average (NaN without parts)
     * @param span    the mean share of the column's extent one part covers (NaN without parts)
     */
    public record ColumnSeparation(String column, long parts, double overlap, double span) {
    }

    /** Gathers the bounds of the key columns part by part, for {@link #result()}. */
    public static Builder over(List<String> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("separation needs at least one key column");
        }
        return new Builder(columns);
    }

    /** Mutable: one per computation, fed from one thread. */
    public static final class Builder {
        private final List<String> columns;
        private final List<Object[]> lows = new ArrayList<>();  // per part, per column: min or null
        private final List<Object[]> highs = new ArrayList<>(); // per part, per column: max key or null
        private final ColumnType[] types;

        private Builder(List<String> columns) {
            this.columns = List.copyOf(columns);
            this.types = new ColumnType[columns.size()];
        }

        /** One part's statistics; null for a part without any. */
        public Builder add(PartStatistics stats) {
            Object[] low = new Object[columns.size()];
            Object[] high = new Object[columns.size()];
            for (int c = 0; stats != null && c < columns.size(); c++) {
                ColumnStatistics s = stats.columns().get(columns.get(c));
                if (s == null || !s.hasBounds()) {
                    continue;
                }
                if (types[c] == null) {
                    types[c] = s.type();
                } else if (types[c] != s.type()) {
                    continue; // the column changed type between writes: these bounds compare with no others
                }
                low[c] = s.min();
                high[c] = s.maxIsPrefix() ? new PrefixAbove((String) s.max()) : s.max();
            }
            lows.add(low);
            highs.add(high);
            return this;
        }

        public LayoutSeparation result() {
            int n = lows.size();
            int d = columns.size();
            int[][] lo = new int[d][];
            int[][] hi = new int[d][];
            long[] points = new long[d];
            List<ColumnSeparation> perColumn = new ArrayList<>();
            for (int c = 0; c < d; c++) {
                lo[c] = new int[n];
                hi[c] = new int[n];
                points[c] = rank(c, lo[c], hi[c]);
                perColumn.add(column(columns.get(c), lo[c], hi[c], points[c]));
            }
            int[] inBox = java.util.stream.IntStream.range(0, n)
                    .filter(p -> java.util.stream.IntStream.range(0, d).allMatch(c -> lo[c][p] >= 0)).toArray();
            if (d == 1) {
                ColumnSeparation only = perColumn.get(0);
                return new LayoutSeparation(columns, n, inBox.length, perColumn, only.overlap(), only.span(), true);
            }
            double span = Double.NaN;
            if (inBox.length > 0) {
                double sum = 0;
                for (int p : inBox) {
                    double share = 1;
                    for (int c = 0; c < d; c++) {
                        share *= (double) (hi[c][p] - lo[c][p] + 1) / points[c];
                    }
                    sum += share;
                }
                span = sum / inBox.length;
            }
            if (inBox.length == 0 || d > MAX_BOX_COLUMNS) {
                return new LayoutSeparation(columns, n, inBox.length, perColumn, Double.NaN,
                        d > MAX_BOX_COLUMNS ? Double.NaN : span, false);
            }
            BoxGrid grid = BoxGrid.of(points, MAX_CELLS);
            for (int p : inBox) {
                int[] from = new int[d];
                int[] to = new int[d];
                for (int c = 0; c < d; c++) {
                    from[c] = lo[c][p];
                    to[c] = hi[c][p];
                }
                grid.add(from, to);
            }
            return new LayoutSeparation(columns, n, inBox.length, perColumn, grid.overlap(), span, grid.exact());
        }

        /**
         * Puts each part's range of column {@code c} in point indexes of the column's key space (point 2i is
         * the i-th distinct bound, 2i + 1 the gap after it; -1 where the part has no bounds) and returns
         * how many points there are.
         */
        private long rank(int c, int[] lo, int[] hi) {
            Comparator<Object> order = order(types[c]);
            List<Object> bounds = new ArrayList<>();
            for (int p = 0; p < lows.size(); p++) {
                if (lows.get(p)[c] != null) {
                    bounds.add(lows.get(p)[c]);
                    bounds.add(highs.get(p)[c]);
                }
            }
            Object[] distinct = bounds.toArray();
            Arrays.sort(distinct, order);
            int m = 0;
            for (int i = 0; i < distinct.length; i++) {
                if (m == 0 || order.compare(distinct[m - 1], distinct[i]) != 0) {
                    distinct[m++] = distinct[i];
                }
            }
            for (int p = 0; p < lows.size(); p++) {
                Object low = lows.get(p)[c];
                lo[p] = low == null ? -1 : 2 * Arrays.binarySearch(distinct, 0, m, low, order);
                hi[p] = low == null ? -1 : 2 * Arrays.binarySearch(distinct, 0, m, highs.get(p)[c], order);
            }
            return Math.max(0, 2L * m - 1);
        }

        /** A column's overlap: the points its parts cover, summed, over the points some part covers. */
        private static ColumnSeparation column(String name, int[] lo, int[] hi, long points) {
            long[] ranges = new long[lo.length];
            int count = 0;
            for (int p = 0; p < lo.length; p++) {
                if (lo[p] >= 0) {
                    ranges[count++] = (long) lo[p] << 32 | hi[p];
                }
            }
            if (count == 0) {
                return new ColumnSeparation(name, 0, Double.NaN, Double.NaN);
            }
            Arrays.sort(ranges, 0, count); // by start: one sweep merges the covered points
            long covered = 0;
            long total = 0;
            long runStart = -1;
            long runEnd = -2;
            for (int i = 0; i < count; i++) {
                long start = ranges[i] >>> 32;
                long end = ranges[i] & 0xffffffffL;
                total += end - start + 1;
                if (start > runEnd) {
                    covered += runEnd - runStart + 1;
                    runStart = start;
                    runEnd = end;
                } else {
                    runEnd = Math.max(runEnd, end);
                }
            }
            covered += runEnd - runStart + 1; // (the first run, -1 to -2, is empty: it added 0)
            return new ColumnSeparation(name, count, (double) total / covered, (double) total / count / points);
        }

        private static Comparator<Object> order(ColumnType type) {
            return (a, b) -> {
                if (a instanceof PrefixAbove pa) {
                    return b instanceof PrefixAbove pb ? pa.compareTo(pb) : pa.compareTo((String) b);
                }
                return b instanceof PrefixAbove pb ? -pb.compareTo((String) a) : Values.compare(type, a, b);
            };
        }
    }

    /** The least string above every string that starts with {@code prefix}: where a prefix maximum may reach. */
    private record PrefixAbove(String prefix) {

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
