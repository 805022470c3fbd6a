package io.stork.skipping;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Counts how many boxes cover each cell of a grid over the key columns' pieces ({@link KeyAxis}), for
 * {@link LayoutSeparation}: a difference array (each box adds ±1 at its 2^d corners, then one prefix sum
 * per dimension), so a box costs 2^d updates whatever its size, and memory is the cells alone. When the
 * pieces of every column fit, each piece is its own cell and the count is exact; otherwise a column's
 * pieces are cut into runs of equal count and a box counts in every cell it touches.
 */
final class BoxGrid {

    private final KeyAxis[] axes;
    private final int[] cells;        // per dimension
    private final double[][] weights; // per dimension and cell: the weight of its pieces
    private final int[] strides;
    private final int[] counts;       // the difference array; after overlap(), boxes per cell
    private final boolean exact;

    private BoxGrid(KeyAxis[] axes, int[] cells) {
        int d = axes.length;
        this.axes = axes;
        this.cells = cells;
        this.strides = new int[d];
        this.weights = new double[d][];
        int size = 1;
        boolean exact = true;
        for (int c = 0; c < d; c++) {
            strides[c] = size;
            size *= cells[c];
            exact &= cells[c] == axes[c].pieces();
            weights[c] = new double[cells[c]];
            for (int piece = 0; piece < axes[c].pieces(); piece++) {
                weights[c][cell(c, piece)] += axes[c].pieceWeight(piece);
            }
        }
        this.exact = exact;
        this.counts = new int[size];
    }

    /**
     * A grid over the axes' pieces in at most {@code maxCells} cells: the axes with fewest pieces are given
     * theirs first, and what they leave of the budget goes to the others.
     */
    static BoxGrid of(KeyAxis[] axes, int maxCells) {
        int d = axes.length;
        Integer[] byPieces = IntStream.range(0, d).boxed().sorted(Comparator.comparingInt(c -> axes[c].pieces()))
                .toArray(Integer[]::new);
        int[] cells = new int[d];
        double budget = maxCells;
        for (int k = 0; k < d; k++) {
            int c = byPieces[k];
            long share = Math.max(1, (long) Math.floor(Math.pow(budget, 1.0 / (d - k)) + 1e-9));
            cells[c] = (int) Math.max(1, Math.min(axes[c].pieces(), share));
            budget /= cells[c];
        }
        return new BoxGrid(axes, cells);
    }

    private int cell(int c, int piece) {
        return (int) ((long) piece * cells[c] / axes[c].pieces());
    }

    /** The box of {@code part}, which has bounds on every axis. */
    void add(int part) {
        int d = cells.length;
        int[] low = new int[d];
        int[] high = new int[d]; // one past the box's last cell
        for (int c = 0; c < d; c++) {
            low[c] = cell(c, axes[c].first(part));
            high[c] = cell(c, axes[c].last(part)) + 1;
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

    /** The boxes per point, weighed, over the points some box covers (NaN when they weigh nothing); once. */
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
