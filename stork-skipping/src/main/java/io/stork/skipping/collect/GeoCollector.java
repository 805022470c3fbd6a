package io.stork.skipping.collect;

import io.stork.skipping.index.GeoBoxesIndexType.GeoBoxes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers the {@code geo} boxes of one part: points are binned into grid cells, each cell keeping the
 * exact extent of its points; when more cells are occupied than the collector may hold, the grid is made
 * twice as coarse and cells merge (their extents joined). At the end the grid coarsens until at most
 * {@code maxBoxes} cells remain, whose extents are the boxes. Every point lies in its cell's extent, so
 * the boxes hold every point; memory is bounded by {@code 4 × maxBoxes} cells. Rows with a null
 * coordinate are left out (the index is used only for filters that constrain both coordinates, which a
 * null never passes); NaN counts as +∞, where Spark orders it (above every number), so {@code lon > 5}
 * still finds it.
 */
public final class GeoCollector {

    private static final double FINEST_CELL_DEGREES = 1.0 / 1024;

    private final String longitude;
    private final int maxBoxes;
    private final int maxCells;
    private double cell = FINEST_CELL_DEGREES;
    private Map<Long, double[]> cells = new HashMap<>();

    public GeoCollector(String longitude, int maxBoxes) {
        this.longitude = longitude;
        this.maxBoxes = maxBoxes;
        this.maxCells = Math.max(4 * maxBoxes, 16);
    }

    public void add(Object latitudeValue, Object longitudeValue) {
        if (!(latitudeValue instanceof Double la) || !(longitudeValue instanceof Double lo)) {
            return;
        }
        double lat = la.isNaN() ? Double.POSITIVE_INFINITY : la;
        double lon = lo.isNaN() ? Double.POSITIVE_INFINITY : lo;
        double[] extent = cells.computeIfAbsent(cellOf(lat, lon, cell), k -> new double[] {lat, lat, lon, lon});
        extent[0] = Math.min(extent[0], lat);
        extent[1] = Math.max(extent[1], lat);
        extent[2] = Math.min(extent[2], lon);
        extent[3] = Math.max(extent[3], lon);
        while (cells.size() > maxCells) {
            coarsen();
        }
    }

    /** The boxes, or null when no row had both coordinates. */
    public GeoBoxes finish() {
        if (cells.isEmpty()) {
            return null;
        }
        while (cells.size() > maxBoxes) {
            coarsen();
        }
        List<double[]> boxes = new ArrayList<>(cells.values());
        boxes.sort((a, b) -> Double.compare(a[0], b[0]) != 0 ? Double.compare(a[0], b[0]) : Double.compare(a[2], b[2]));
        return new GeoBoxes(longitude, boxes);
    }

    private void coarsen() {
        cell *= 2;
        Map<Long, double[]> merged = new HashMap<>();
        boolean all = cell > 4e9; // past any coordinate: one box for everything (ends the coarsening)
        for (double[] e : cells.values()) {
            // A cell's points all lie in its extent; binning the extent by its low corner keeps them together.
            merged.merge(all ? 0L : cellOf(e[0], e[2], cell), e.clone(), (a, b) -> new double[] {Math.min(a[0], b[0]),
                    Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.max(a[3], b[3])});
        }
        cells = merged;
    }

    private static long cellOf(double lat, double lon, double size) {
        // Infinite or huge coordinates land in the edge cells; the extents stay exact.
        long row = (long) Math.floor(Math.max(-1e9, Math.min(1e9, lat)) / size);
        long column = (long) Math.floor(Math.max(-1e9, Math.min(1e9, lon)) / size);
        return row * 4_000_000_007L + column;
    }
}
