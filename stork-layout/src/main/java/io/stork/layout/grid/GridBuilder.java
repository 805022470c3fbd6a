package io.stork.layout.grid;

import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.HistorySummary;
import io.stork.layout.model.PartitionerModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Builds a {@link GridModel}: the area's cells along the Hilbert curve cut into runs, either balanced by a
 * sample's rows per cell (a run ends at the cell boundary nearest to an equal share; a cell is never split,
 * so one dense cell can make its bucket heavier) or, without a sample, the same number of cells per run.
 */
public final class GridBuilder {

    /** Cells of 10^-6 degree (about 0.1 m) are already finer than any use of a grid layout. */
    static final int MAX_PRECISION = 6;

    private final Column lat;
    private final Column lon;
    private final int precision;
    private final int buckets;
    private final double[] area;
    private final HistorySummary history;

    private GridBuilder(Column lat, Column lon, int precision, int buckets, double[] area, HistorySummary history) {
        checkPrecision(precision);
        if (buckets < 1) {
            throw new IllegalArgumentException("a grid needs at least one bucket, not " + buckets);
        }
        this.lat = lat;
        this.lon = lon;
        this.precision = precision;
        this.buckets = buckets;
        this.area = area;
        this.history = history;
    }

    public static GridBuilder of(String latColumn, String lonColumn, int precision, int buckets) {
        return new GridBuilder(Column.of(latColumn, ColumnType.DOUBLE), Column.of(lonColumn, ColumnType.DOUBLE),
                precision, buckets, null, HistorySummary.NONE);
    }

    /** The area the grid covers (degrees); without one, the sample's extent. */
    public GridBuilder area(double minLat, double maxLat, double minLon, double maxLon) {
        if (!(minLat <= maxLat && minLon <= maxLon && minLat >= -90 && maxLat <= 90 && minLon >= -180
                && maxLon <= 180)) {
            throw new IllegalArgumentException("not a latitude/longitude area: [" + minLat + ", " + maxLat + "] x ["
                    + minLon + ", " + maxLon + "]");
        }
        return new GridBuilder(lat, lon, precision, buckets, new double[] {minLat, maxLat, minLon, maxLon}, history);
    }

    /** The history summary to save with the model (the grid's cells do not depend on it). */
    public GridBuilder history(HistorySummary summary) {
        return new GridBuilder(lat, lon, precision, buckets, area, summary);
    }

    private static boolean onTheMap(double latitude, double longitude) {
        return latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180;
    }

    /** Equal numbers of cells per bucket; needs an {@link #area}. */
    public GridModel build() {
        if (area == null) {
            throw new IllegalArgumentException("a grid without a sample needs an area");
        }
        GridModel shape = shape(area);
        long[] positions = new long[shape.rows() * shape.cols()];
        int i = 0;
        for (int r = 0; r < shape.rows(); r++) {
            for (int c = 0; c < shape.cols(); c++) {
                positions[i++] = shape.position(r, c);
            }
        }
        Arrays.sort(positions);
        long[] ones = new long[positions.length];
        Arrays.fill(ones, 1);
        return withCuts(shape, cuts(positions, ones));
    }

    /** Buckets balanced by the sample's rows ({@code {lat, lon}} keys, or rows whose first two values are). */
    public GridModel build(List<Object[]> sample) {
        if (sample == null || sample.isEmpty()) {
            throw new IllegalArgumentException("a grid is balanced by a sample of rows; the sample is empty");
        }
        List<double[]> points = new ArrayList<>(sample.size());
        double[] extent = {90, -90, 180, -180};
        for (Object[] row : sample) {
            Object[] k = PartitionerModel.canonicalKey(List.of(lat, lon), row);
            // A coordinate off the map (NaN, infinite, out of range: bad data) must not stretch the grid over
            // the whole plane; routing puts such rows in an edge cell, as it does rows outside the area.
            if (k[0] != null && k[1] != null && onTheMap((Double) k[0], (Double) k[1])) {
                double la = (Double) k[0];
                double lo = (Double) k[1];
                points.add(new double[] {la, lo});
                extent = new double[] {Math.min(extent[0], la), Math.max(extent[1], la), Math.min(extent[2], lo),
                        Math.max(extent[3], lo)};
            }
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a grid is balanced by a sample of rows; no sample row has a latitude in "
                    + "[-90, 90] and a longitude in [-180, 180] (" + lat.name() + ", " + lon.name() + ")");
        }
        GridModel shape = shape(area != null ? area : extent);
        TreeMap<Long, Long> counts = new TreeMap<>();
        for (double[] p : points) {
            counts.merge(shape.position(shape.row(p[0]), shape.col(p[1])), 1L, Long::sum);
        }
        long[] positions = counts.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] weights = counts.values().stream().mapToLong(Long::longValue).toArray();
        return withCuts(shape, cuts(positions, weights));
    }

    private GridModel shape(double[] a) {
        double s = Math.pow(10, precision);
        int minRow = (int) Math.floor(a[0] * s);
        int minCol = (int) Math.floor(a[2] * s);
        int rows = (int) Math.floor(a[1] * s) - minRow + 1;
        int cols = (int) Math.floor(a[3] * s) - minCol + 1;
        if ((long) rows * cols > 50_000_000L) {
            throw new IllegalArgumentException("a grid of precision " + precision + " over this area has "
                    + (long) rows * cols + " cells; choose a lower precision or a smaller area");
        }
        return new GridModel(lat, lon, precision, minRow, minCol, rows, cols, List.of(), history);
    }

    private GridModel withCuts(GridModel shape, List<Long> cuts) {
        return new GridModel(lat, lon, precision, shape.minRow(), shape.minCol(), shape.rows(), shape.cols(), cuts,
                history);
    }

    /**
     * The {@code buckets - 1} cut positions: cut k at the cell boundary whose rows before it are nearest to
     * k/buckets of all, after the previous cut. Past the last cell, cuts sit beyond every position (the
     * last buckets stay empty rather than split a cell).
     */
    private List<Long> cuts(long[] positions, long[] weights) {
        long[] before = new long[positions.length + 1];
        for (int i = 0; i < positions.length; i++) {
            before[i + 1] = before[i] + weights[i];
        }
        long total = before[positions.length];
        long beyond = positions[positions.length - 1] + 1;
        List<Long> cuts = new ArrayList<>();
        int prev = 0;
        for (int k = 1; k < buckets; k++) {
            double target = (double) total * k / buckets;
            int i = Arrays.binarySearch(before, 0, positions.length, (long) Math.ceil(target));
            i = i >= 0 ? i : -i - 1;
            if (i > 0 && i < positions.length && Math.abs(before[i - 1] - target) <= Math.abs(before[i] - target)) {
                i--;
            }
            i = Math.max(i, prev + 1);
            cuts.add(i < positions.length ? positions[i] : beyond);
            prev = Math.min(i, positions.length);
        }
        return cuts;
    }

    static void checkPrecision(int precision) {
        if (precision < 0 || precision > MAX_PRECISION) {
            throw new IllegalArgumentException("grid precision is 0.." + MAX_PRECISION + " (cells of 10^-p degree), not "
                    + precision);
        }
    }
}
