package io.stork.skipping;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * How well the parts' min/max boxes over some key columns separate: what a layout is for. Per column and
 * for the box over all of them, the <em>overlap</em> is how many parts' ranges a point of the key space
 * lies in on average, over the points some part covers (1 = disjoint, N = every part covers everything),
 * and the <em>span</em> the mean share of the dataset's extent one part covers.
 *
 * <p>Points are weighed by value where the type has a distance (integers, dates and timestamps as the values
 * they count, doubles and decimals by length) and by rank where it has none (strings, booleans), see
 * {@link KeyAxis}; either way disjoint ranges give exactly 1 and identical ones exactly N. A string maximum
 * cut to a prefix P stands for the least string above all that start with P, where the true maximum may lie.
 *
 * <p>Cost: per column a sort of its 2n bounds and a sweep of the ranges (O(n log n)); the box counts its
 * parts in a grid of the columns' pieces ({@link BoxGrid}, O(n 2<sup>d</sup> + cells)), exact while the grid
 * fits {@link #MAX_CELLS} cells, past that on coarser cells with each box widened to the cells it touches
 * ({@link #boxExact()} false). Memory: the key columns' bounds, and the grid.
 *
 * @param columns   the key columns
 * @param parts     parts offered
 * @param boxParts  parts with min/max on every key column, which the box figures are over
 * @param perColumn per key column, over the parts with min/max on it
 * @param overlap   the box's overlap (NaN when no part has a box, or past {@link #MAX_BOX_COLUMNS} columns)
 * @param span      the mean share of the extent's volume one box covers (NaN likewise)
 * @param boxExact  whether the box's overlap was counted on every piece, not on coarser cells
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
     * @param byValue points weighed by value (else by rank)
     */
    public record ColumnSeparation(String column, long parts, double overlap, double span, boolean byValue) {
    }

    /** Gathers the bounds of the key columns part by part, for {@link Builder#result()}. */
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
        private final List<Object[]> highs = new ArrayList<>(); // per part, per column: max (or PrefixAbove)
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
                high[c] = s.maxIsPrefix() ? new KeyAxis.PrefixAbove((String) s.max()) : s.max();
            }
            lows.add(low);
            highs.add(high);
            return this;
        }

        public LayoutSeparation result() {
            int n = lows.size();
            int d = columns.size();
            KeyAxis[] axes = new KeyAxis[d];
            List<ColumnSeparation> perColumn = new ArrayList<>();
            for (int c = 0; c < d; c++) {
                int column = c;
                axes[c] = KeyAxis.of(types[c], lows.stream().map(l -> l[column]).toArray(),
                        highs.stream().map(h -> h[column]).toArray());
                perColumn.add(axes[c].separation(columns.get(c)));
            }
            int[] inBox = IntStream.range(0, n).filter(p -> IntStream.range(0, d).allMatch(c -> axes[c].hasBounds(p)))
                    .toArray();
            if (d == 1) {
                ColumnSeparation only = perColumn.get(0);
                return new LayoutSeparation(columns, n, inBox.length, perColumn, only.overlap(), only.span(), true);
            }
            if (inBox.length == 0 || d > MAX_BOX_COLUMNS) {
                return new LayoutSeparation(columns, n, inBox.length, perColumn, Double.NaN, Double.NaN, false);
            }
            LayoutSeparation byValue = box(n, inBox, axes, perColumn);
            if (!Double.isNaN(byValue.overlap())) {
                return byValue;
            }
            // Every box is flat on some column weighed by length (a part of one double value there): no
            // volume to count, so by rank, where a single value is a point like any other.
            return box(n, inBox, Arrays.stream(axes).map(KeyAxis::ranked).toArray(KeyAxis[]::new), perColumn);
        }

        private LayoutSeparation box(int n, int[] inBox, KeyAxis[] axes, List<ColumnSeparation> perColumn) {
            double shares = 0;
            for (int p : inBox) {
                double share = 1;
                for (KeyAxis axis : axes) {
                    share *= axis.share(p);
                }
                shares += share;
            }
            BoxGrid grid = BoxGrid.of(axes, MAX_CELLS);
            for (int p : inBox) {
                grid.add(p);
            }
            return new LayoutSeparation(columns, n, inBox.length, perColumn, grid.overlap(), shares / inBox.length,
                    grid.exact());
        }
    }
}
