package io.stork.layout.grid;

/**
 * Positions of the cells of a 2^order × 2^order square along a Hilbert curve. Consecutive positions are
 * always edge neighbours, so a contiguous run of positions is a connected patch of cells: a bucket made of
 * one run holds a region, not cells scattered over the map (the hash of the paper's grid partitioner
 * scatters them, which is what made fine grids ship more bytes for large queries).
 */
final class HilbertCurve {

    private HilbertCurve() {
    }

    /** The position of cell (x, y), 0 ≤ x, y < 2^order. */
    static long position(int order, int x, int y) {
        int n = 1 << order;
        long d = 0;
        for (int s = n >> 1; s > 0; s >>= 1) {
            int rx = (x & s) != 0 ? 1 : 0;
            int ry = (y & s) != 0 ? 1 : 0;
            d += (long) s * s * ((3 * rx) ^ ry);
            // Turn the sub-square so that the curve inside it starts and ends where the parent's path needs.
            if (ry == 0) {
                if (rx == 1) {
                    x = n - 1 - x;
                    y = n - 1 - y;
                }
                int t = x;
                x = y;
                y = t;
            }
        }
        return d;
    }

    /** The smallest order whose square holds {@code side} cells a side. */
    static int orderFor(int side) {
        int order = 0;
        while ((1 << order) < side) {
            order++;
        }
        return order;
    }
}
