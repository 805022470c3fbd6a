package io.stork.layout.grid;

import io.stork.layout.model.Box;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.HistorySummary;
import io.stork.layout.model.PartitionerModel;
import io.stork.layout.model.Range;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A latitude/longitude grid: cells of 10^-precision degree a side (precision 1: 0.1°, about 11 km; 0: 1°,
 * about 110 km, the paper's levels), over an area of {@code rows} × {@code cols} cells whose south-west
 * cell is ({@code minRow}, {@code minCol}) in units of cells from (0°, 0°). Cells are ordered along a
 * Hilbert curve and cut into {@code cuts.size() + 1} contiguous runs, one per bucket: bucket b holds the
 * positions in [cuts[b-1], cuts[b]). Keys outside the area go to the nearest edge cell, so routing is
 * total. Built by {@link GridBuilder}.
 */
public record GridModel(Column lat, Column lon, int precision, int minRow, int minCol, int rows, int cols,
                        List<Long> cuts, HistorySummary history) implements PartitionerModel {

    public static final String KIND = "grid";

    public GridModel {
        Objects.requireNonNull(history, "history");
        if (lat.type() != ColumnType.DOUBLE || lon.type() != ColumnType.DOUBLE) {
            throw new IllegalArgumentException("a grid needs double latitude and longitude columns, not "
                    + lat.type().jsonName() + " and " + lon.type().jsonName());
        }
        GridBuilder.checkPrecision(precision);
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("a grid needs at least one cell, not " + rows + " x " + cols);
        }
        cuts = List.copyOf(cuts);
        for (int i = 1; i < cuts.size(); i++) {
            if (cuts.get(i) < cuts.get(i - 1)) {
                throw new IllegalArgumentException("grid cuts must not decrease: " + cuts);
            }
        }
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public List<Column> columns() {
        return List.of(lat, lon);
    }

    @Override
    public int buckets() {
        return cuts.size() + 1;
    }

    @Override
    public int bucketOf(Object[] key) {
        Object[] k = PartitionerModel.canonicalKey(columns(), key);
        if (k[0] == null || k[1] == null) {
            return 0; // no place on the map: a fixed bucket keeps routing deterministic
        }
        return bucketOfPosition(position(row((Double) k[0]), col((Double) k[1])));
    }

    int bucketOfPosition(long position) {
        int i = Collections.binarySearch(cuts, position);
        // Equal cuts (empty buckets) share a position: the cell belongs to the bucket after the last of them.
        if (i >= 0) {
            while (i + 1 < cuts.size() && cuts.get(i + 1) == position) {
                i++;
            }
            return i + 1;
        }
        return -i - 1;
    }

    /** The area row of a latitude (clamped to the area). */
    public int row(double latitude) {
        return clamp((long) Math.floor(latitude * scale()) - minRow, rows);
    }

    public int col(double longitude) {
        return clamp((long) Math.floor(longitude * scale()) - minCol, cols);
    }

    public long position(int row, int col) {
        return HilbertCurve.position(HilbertCurve.orderFor(Math.max(rows, cols)), col, row);
    }

    /** The bucket of an area cell. */
    public int bucketOfCell(int row, int col) {
        return bucketOfPosition(position(row, col));
    }

    /** The box (lat range, lon range) of an area cell. */
    public Box cellBox(int row, int col) {
        double s = scale();
        return Box.of(new Range((minRow + row) / s, (minRow + row + 1) / s),
                new Range((minCol + col) / s, (minCol + col + 1) / s));
    }

    /**
     * The cells of the area that {@code bucket} holds, as boxes: what a part's statistics keep one box
     * each of (or of the ones its rows occupy). Walks the whole area: for a writer's set-up, not per row.
     */
    public List<Box> cellBoxes(int bucket) {
        if (bucket < 0 || bucket >= buckets()) {
            throw new IllegalArgumentException("no bucket " + bucket + " in a grid of " + buckets());
        }
        List<Box> boxes = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (bucketOfCell(r, c) == bucket) {
                    boxes.add(cellBox(r, c));
                }
            }
        }
        return boxes;
    }

    private double scale() {
        return Math.pow(10, precision);
    }

    private static int clamp(long v, int size) {
        return (int) Math.max(0, Math.min(size - 1, v));
    }
}
