package io.stork.layout.grid;

import io.stork.layout.model.Box;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GridModelTest {

    private static final List<Column> LAT_LON = List.of(Column.of("lat", ColumnType.DOUBLE),
            Column.of("lon", ColumnType.DOUBLE));

    @Test
    void hilbertNeighboursAlongTheCurveAreNeighboursOnTheMap() {
        int order = 5;
        int side = 1 << order;
        int[][] at = new int[side * side][];
        for (int x = 0; x < side; x++) {
            for (int y = 0; y < side; y++) {
                at[(int) HilbertCurve.position(order, x, y)] = new int[] {x, y};
            }
        }
        for (int d = 1; d < at.length; d++) {
            assertThat(Math.abs(at[d][0] - at[d - 1][0]) + Math.abs(at[d][1] - at[d - 1][1])).isEqualTo(1);
        }
    }

    @Test
    void precisionOneCellsAreATenthOfADegree_andNeighbouringCellsShareBuckets() {
        GridModel grid = GridBuilder.of("lat", "lon", 1, 16).area(41.3, 51.1, -5.2, 9.6).build();
        assertThat(grid.rows()).isEqualTo(99);
        assertThat(grid.cols()).isEqualTo(149);
        Box cell = grid.cellBox(grid.row(43.61), grid.col(3.87));
        assertThat((Double) cell.range(0).lo()).isCloseTo(43.6, org.assertj.core.data.Offset.offset(1e-9));
        assertThat((Double) cell.range(0).hi()).isCloseTo(43.7, org.assertj.core.data.Offset.offset(1e-9));

        long pairs = 0;
        long shared = 0;
        for (int r = 0; r < grid.rows(); r++) {
            for (int c = 0; c < grid.cols(); c++) {
                int b = grid.bucketOfCell(r, c);
                if (r + 1 < grid.rows()) {
                    pairs++;
                    shared += grid.bucketOfCell(r + 1, c) == b ? 1 : 0;
                }
                if (c + 1 < grid.cols()) {
                    pairs++;
                    shared += grid.bucketOfCell(r, c + 1) == b ? 1 : 0;
                }
            }
        }
        // 16 patches of ~920 cells: only their borders separate neighbours (a hash would separate 15 in 16).
        assertThat((double) shared / pairs).isGreaterThan(0.9);
        int[] cells = new int[16];
        for (int b = 0; b < 16; b++) {
            cells[b] = grid.cellBoxes(b).size();
        }
        assertThat(java.util.Arrays.stream(cells).boxed().toList()).allSatisfy(n -> assertThat(n).isBetween(99 * 149 / 16 - 1, 99 * 149 / 16 + 1));
    }

    @Test
    void aSampleBalancesTheBuckets_andEachBucketsCellBoxesCoverItsRows() {
        Random r = new Random(11);
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            // Two dense clusters and a thin background.
            double[] centre = i % 3 == 0 ? new double[] {48.85, 2.35} : i % 3 == 1 ? new double[] {43.3, 5.4}
                    : new double[] {46 + 4 * r.nextDouble(), -1 + 7 * r.nextDouble()};
            sample.add(new Object[] {centre[0] + 0.3 * r.nextGaussian(), centre[1] + 0.3 * r.nextGaussian()});
        }
        GridModel grid = GridBuilder.of("lat", "lon", 1, 32).build(sample);
        List<List<Box>> cellsOf = new ArrayList<>();
        for (int b = 0; b < 32; b++) {
            cellsOf.add(grid.cellBoxes(b));
        }
        int[] counts = new int[32];
        for (Object[] row : sample) {
            int b = grid.bucketOf(row);
            counts[b]++;
            assertThat(cellsOf.get(b)).as("cells of bucket %d", b).anyMatch(box -> box.contains(LAT_LON, row));
        }
        // Cells are never split, so the densest cell (about 1.6% of rows here) sets the tolerance.
        assertThat(java.util.Arrays.stream(counts).boxed().toList()).allSatisfy(n -> assertThat(n).isBetween(20_000 / 32 - 350, 20_000 / 32 + 350));
    }

    @Test
    void coordinatesOffTheMapDoNotStretchTheGrid_andAreRoutedToABucket() {
        Random r = new Random(5);
        List<Object[]> clean = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            clean.add(new Object[] {45 + 3 * r.nextDouble(), 1 + 4 * r.nextDouble()});
        }
        List<Object[]> dirty = new ArrayList<>(clean);
        dirty.add(new Object[] {Double.POSITIVE_INFINITY, 2.0});
        dirty.add(new Object[] {Double.NaN, 2.0});
        dirty.add(new Object[] {47.0, 999.0});
        GridModel fromClean = GridBuilder.of("lat", "lon", 1, 8).build(clean);
        GridModel fromDirty = GridBuilder.of("lat", "lon", 1, 8).build(dirty);
        // Bad rows left out of the shape: the same cells and cuts as the clean sample's.
        assertThat(fromDirty).isEqualTo(fromClean);
        for (Object[] bad : dirty.subList(clean.size(), dirty.size())) {
            assertThat(fromDirty.bucketOf(bad)).isBetween(0, 7);
        }
        assertThatThrownBy(() -> GridBuilder.of("lat", "lon", 1, 4).build(List.<Object[]>of(new Object[] {Double.NaN, 1.0})))
                .hasMessage("a grid is balanced by a sample of rows; no sample row has a latitude in [-90, 90] and a "
                        + "longitude in [-180, 180] (lat, lon)");
    }

    @Test
    void badInputFailsWithOneLine() {
        assertThatThrownBy(() -> GridBuilder.of("lat", "lon", 1, 0)).hasMessage("a grid needs at least one bucket, not 0");
        assertThatThrownBy(() -> GridBuilder.of("lat", "lon", 9, 4))
                .hasMessage("grid precision is 0..6 (cells of 10^-p degree), not 9");
        assertThatThrownBy(() -> GridBuilder.of("lat", "lon", 1, 4).build(List.of()))
                .hasMessage("a grid is balanced by a sample of rows; the sample is empty");
        assertThatThrownBy(() -> GridBuilder.of("lat", "lon", 1, 4).build())
                .hasMessage("a grid without a sample needs an area");
    }
}
