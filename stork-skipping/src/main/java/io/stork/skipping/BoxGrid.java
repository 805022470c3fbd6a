package io.stork.skipping;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Counts how many boxes cover each cell of a d-dimensional grid of key-space points, for
 * {@link LayoutSeparation}: a difference array (each box adds ±1 at its 2^d corners, then one prefix sum
 * per dimension), so a box costs 2^d updates whatever its size, and memory is the cells alone. When the
 * points of every dimension fit, each point is its own cell and the count is exact; otherwise a dimension's
 * points are cut into runs of equal length and a box counts in every cell it touches.
 */
final class BoxGrid {

    private final int[] cells;      // per dimension
    private final long[][] weights; // per dimension and cell: the points it holds
    private final long[] points;    // per dimension
    private final int[] strides;
    private final int[] counts;     // the difference array; after sum(), boxes per cell
    private final boolean exact;

    private BoxGrid(long[] points, int[] cells) {
        int d = points.length;
        this.points = points.clone();
        this.cells = cells;
        this.strides = new int[d];
        this.weights = new long[d][];
        int size = 1;
        boolean exact = true;
        for (int c = 0; c < d; c++) {
            strides[c] = size;
            size *= cells[c];
            exact &= cells[c] == points[c];
            weights[c] = new long[cells[c]];
            for (long p = 0; p < points[c]; p++) {
                weights[c][cell(c, p)]++;
            }
        }
        this.exact = exact;
        this.counts = new int[size];
    }

    /**
     * A grid over {@code points[c]} points per dimension in at most {@code maxCells} cells: the dimensions
     * with fewest points are given theirs first, and what they leave of the budget goes to the others.
     */
    static BoxGrid of(long[] points, int maxCells) {
        int d = points.length;
        Integer[] byPoints = IntStream.range(0, d).boxed().sorted(Comparator.comparingLong(c -> points[c]))
                .toArray(Integer[]::new);
        int[] cells = new int[d];
        double budget = maxCells;
        for (int k = 0; k < d; k++) {
            int c = byPoints[k];
            long share = Math.max(1, (long) Math.floor(Math.pow(budget, 1.0 / (d - k)) + 1e-9));
            cells[c] = (int) Math.max(1, Math.min(points[c], share));
            budget /= cells[c];
        }
        return new BoxGrid(points, cells);
    }

    private int cell(int c, long point) {
        return (int) (point * cells[c] / points[c]);
    }

    /** One box, from point {@code from[c]} to point {@code to[c]} (inclusive) in each dimension. */
    void add(int[] from, int[] to) {
        int d = cells.length;
        int[] low = new int[d];
        int[] high = new int[d]; // one past the box's last cell
        for (int c = 0; c < d; c++) {
            low[c] = cell(c, from[c]);
            high[c] = cell(c, to[c]) + 1;
        }
        corners:
        for (int corner = 0; corner < 1 << d; corner++) {
            int index = 0;
            for (int c = 0; c < d; c++) {
                int at = (corner >> c & 1) == 0 ? low[c] : high[c];
                if (at == cells[c]) {
                    continue corners; // past the grid's end: nothing to undo there
                }
                index += at * strides[c];
            }
            counts[index] += Integer.bitCount(corner) % 2 == 0 ? 1 : -1;
        }
    }

    /** The boxes per point, averaged over the points some box covers (NaN when none does); once, after the adds. */
    double overlap() {
        int d = cells.length;
        for (int c = 0; c < d; c++) {
            for (int index = 0; index < counts.length; index++) {
                if (index / strides[c] % cells[c] > 0) {
                    counts[index] += counts[index - strides[c]];
                }
            }
        }
        int[] at = new int[d];
        double covered = 0;
        double total = 0;
        for (int index = 0; index < counts.length; index++) {
            if (counts[index] > 0) {
                double weight = 1;
                for (int c = 0; c < d; c++) {
                    weight *= weights[c][at[c]];
                }
                covered += weight;
                total += weight * counts[index];
            }
            for (int c = 0; c < d && ++at[c] == cells[c]; c++) {
                at[c] = 0; // the odometer of cell coordinates, first dimension fastest (as the strides)
            }
        }
        return covered == 0 ? Double.NaN : total / covered;
    }

    boolean exact() {
        return exact;
    }
}
