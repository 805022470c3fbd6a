package io.stork.skipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link LayoutSeparation} over hand-built statistics, and against a count of every point of the key space. */
class LayoutSeparationTest {

    private static ColumnStatistics range(Object min, Object max) {
        ColumnType type = min instanceof Long ? ColumnType.LONG : min instanceof Double ? ColumnType.DOUBLE
                : ColumnType.STRING;
        return new ColumnStatistics(type, 0, 0, min, max, false, Map.of());
    }

    /** A part's statistics from name, min, max triples. */
    private static PartStatistics part(Object... triples) {
        Map<String, ColumnStatistics> columns = new LinkedHashMap<>();
        for (int i = 0; i < triples.length; i += 3) {
            columns.put((String) triples[i], triples[i + 1] instanceof ColumnStatistics c ? c
                    : range(triples[i + 1], triples[i + 2]));
        }
        return new PartStatistics(10, columns);
    }

    @Test
    void disjointRangesOverlapOnceAndSpanTheirShare() {
        LayoutSeparation.Builder b = LayoutSeparation.over(List.of("x"));
        for (long i = 0; i < 4; i++) {
            b.add(part("x", i * 10, i * 10 + 9));
        }
        LayoutSeparation s = b.result();
        assertThat(s.parts()).isEqualTo(4);
        assertThat(s.withoutBounds()).isZero();
        assertThat(s.overlap()).isEqualTo(1.0);
        assertThat(s.perColumn().get(0).overlap()).isEqualTo(1.0);
        // 8 distinct bounds: 15 points; each part covers its 2 bounds and the gap between: 3 of 15.
        assertThat(s.span()).isCloseTo(3.0 / 15, within(1e-12));
    }

    @Test
    void identicalRangesOverlapNTimesAndSpanEverything() {
        LayoutSeparation.Builder b = LayoutSeparation.over(List.of("x", "y"));
        for (int i = 0; i < 5; i++) {
            b.add(part("x", 0L, 100L, "y", -1.5, 2.5));
        }
        LayoutSeparation s = b.result();
        assertThat(s.overlap()).isEqualTo(5.0);
        assertThat(s.span()).isEqualTo(1.0);
        assertThat(s.perColumn()).extracting(LayoutSeparation.ColumnSeparation::overlap).containsExactly(5.0, 5.0);
        assertThat(s.boxExact()).isTrue();
    }

    @Test
    void partialOverlapCountsTheSharedPoints() {
        // [0,10] and [5,15]: bounds 0 5 10 15, 7 points; 5 each, covered 7.
        LayoutSeparation s = LayoutSeparation.over(List.of("x")).add(part("x", 0L, 10L)).add(part("x", 5L, 15L)).result();
        assertThat(s.overlap()).isCloseTo(10.0 / 7, within(1e-12));
        assertThat(s.span()).isCloseTo(5.0 / 7, within(1e-12));
        // Touching at one value: the shared bound is covered twice, the rest once (5 points, 6 covered).
        LayoutSeparation touching = LayoutSeparation.over(List.of("x")).add(part("x", 0L, 10L))
                .add(part("x", 10L, 20L)).result();
        assertThat(touching.overlap()).isCloseTo(6.0 / 5, within(1e-12));
    }

    @Test
    void quadrantsSeparateAsBoxesThoughEachColumnOverlapsTwice() {
        LayoutSeparation.Builder b = LayoutSeparation.over(List.of("lat", "lon"));
        for (double lat : new double[] {0, 10}) {
            for (double lon : new double[] {0, 10}) {
                b.add(part("lat", lat, lat + 9, "lon", lon, lon + 9));
            }
        }
        LayoutSeparation s = b.result();
        assertThat(s.overlap()).isEqualTo(1.0);
        assertThat(s.perColumn()).extracting(LayoutSeparation.ColumnSeparation::overlap).containsExactly(2.0, 2.0);
        assertThat(s.span()).isCloseTo(3.0 / 7 * 3.0 / 7, within(1e-12));
    }

    @Test
    void partsWithoutBoundsAreCountedApart() {
        ColumnStatistics onlyNulls = new ColumnStatistics(ColumnType.LONG, 10, 0, null, null, false, Map.of());
        LayoutSeparation s = LayoutSeparation.over(List.of("x", "y"))
                .add(part("x", 0L, 9L, "y", 0L, 9L))
                .add(part("x", 10L, 19L, "y", 10L, 19L))
                .add(part("x", 0L, 19L)) // y not indexed
                .add(part("x", 20L, 29L, "y", onlyNulls, null))
                .add(null) // no statistics at all
                .add(part("x", "a", "b", "y", 0L, 9L)) // x changed type: compares with nothing
                .result();
        assertThat(s.parts()).isEqualTo(6);
        assertThat(s.boxParts()).isEqualTo(2);
        assertThat(s.withoutBounds()).isEqualTo(4);
        assertThat(s.overlap()).isEqualTo(1.0);
        assertThat(s.perColumn()).extracting(LayoutSeparation.ColumnSeparation::parts).containsExactly(4L, 3L);
        assertThat(LayoutSeparation.over(List.of("z")).add(part("x", 0L, 1L)).add(null).result())
                .satisfies(none -> {
                    assertThat(none.boxParts()).isZero();
                    assertThat(none.overlap()).isNaN();
                    assertThat(none.perColumn().get(0).span()).isNaN();
                });
        assertThatThrownBy(() -> LayoutSeparation.over(List.of())).hasMessage("separation needs at least one key column");
    }

    @Test
    void stringsAndTimestampsAreMeasuredByRank() {
        long t0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli() * 1000;
        long hour = 3_600_000_000L;
        LayoutSeparation.Builder b = LayoutSeparation.over(List.of("city", "ts"));
        String[][] cities = {{"Aix", "Brest"}, {"Caen", "Dijon"}, {"Metz", "Zürich"}};
        for (int i = 0; i < 3; i++) {
            b.add(part("city", cities[i][0], cities[i][1], "ts", t0 + i * hour, t0 + (i + 1) * hour - 1));
        }
        LayoutSeparation s = b.result();
        assertThat(s.perColumn()).extracting(LayoutSeparation.ColumnSeparation::overlap).containsExactly(1.0, 1.0);
        assertThat(s.overlap()).isEqualTo(1.0);
        // [Aix, Metz] holds Caen: 3 bounds, 5 points, 6 covered.
        LayoutSeparation crossing = LayoutSeparation.over(List.of("city")).add(part("city", "Aix", "Metz"))
                .add(part("city", "Caen", "Caen")).result();
        assertThat(crossing.overlap()).isCloseTo(6.0 / 5, within(1e-12));
        // Spark's order (UTF-8 bytes) puts the fullwidth A (EF BC A1) below the emoji (F0 9F 98 80), where
        // Java's UTF-16 order has the emoji (D83D) first, inside [a, Ａ].
        LayoutSeparation utf8 = LayoutSeparation.over(List.of("s")).add(part("s", "a", "\uFF21"))
                .add(part("s", "\uD83D\uDE00", "\uD83D\uDE00")).result();
        assertThat(utf8.overlap()).isEqualTo(1.0);
    }

    @Test
    void aMaximumCutToAPrefixReachesTheStringsThatStartWithIt() {
        ColumnStatistics cut = new ColumnStatistics(ColumnType.STRING, 0, 0, "ab", "ab", true, Map.of());
        // ["ab", "ab…"] may hold "abz"; ["abc", "abd"] starts inside it, so the two overlap.
        LayoutSeparation s = LayoutSeparation.over(List.of("s")).add(part("s", cut, null))
                .add(part("s", "abc", "abd")).result();
        assertThat(s.overlap()).isGreaterThan(1.0);
        // Against "ac", which no string starting with "ab" reaches, they are disjoint.
        LayoutSeparation apart = LayoutSeparation.over(List.of("s")).add(part("s", cut, null))
                .add(part("s", "ac", "ad")).result();
        assertThat(apart.overlap()).isEqualTo(1.0);
    }

    /** Random boxes in three columns against a count at every point of the rank space. */
    @Test
    void agreesWithCountingEveryPoint() {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            int n = 1 + random.nextInt(12);
            List<long[][]> boxes = new ArrayList<>();
            LayoutSeparation.Builder b = LayoutSeparation.over(List.of("a", "b", "c"));
            for (int p = 0; p < n; p++) {
                long[][] box = new long[3][];
                for (int c = 0; c < 3; c++) {
                    long x = random.nextInt(20);
                    long y = x + random.nextInt(round % 2 == 0 ? 4 : 20);
                    box[c] = new long[] {x, y};
                }
                boxes.add(box);
                b.add(part("a", box[0][0], box[0][1], "b", box[1][0], box[1][1], "c", box[2][0], box[2][1]));
            }
            LayoutSeparation s = b.result();
            assertThat(s.boxExact()).isTrue();
            assertThat(s.overlap()).as("round %d", round).isCloseTo(bruteForce(boxes, 3), within(1e-9));
            for (int c = 0; c < 3; c++) {
                int column = c;
                assertThat(s.perColumn().get(c).overlap()).isCloseTo(bruteForce(boxes.stream()
                        .map(box -> new long[][] {box[column]}).toList(), 1), within(1e-9));
            }
        }
    }

    /** Coarser cells than points: each box widened to the cells it touches, an approximation; finer, exact. */
    @Test
    void aCoarseGridCountsWidenedBoxes() {
        Random random = new Random(11);
        List<long[][]> boxes = new ArrayList<>();
        for (int p = 0; p < 30; p++) {
            long x = random.nextInt(1000);
            long y = random.nextInt(1000);
            boxes.add(new long[][] {{x, x + 10}, {y, y + 10}});
        }
        double exact = bruteForce(boxes, 2);
        long[][] points = pointIndexes(boxes, 2);
        long[] sizes = {points[0][points[0].length - 1], points[1][points[1].length - 1]};
        BoxGrid coarse = BoxGrid.of(sizes, 64);
        assertThat(coarse.exact()).isFalse();
        for (int p = 0; p < boxes.size(); p++) {
            coarse.add(new int[] {(int) points[0][2 * p], (int) points[1][2 * p]},
                    new int[] {(int) points[0][2 * p + 1], (int) points[1][2 * p + 1]});
        }
        assertThat(coarse.overlap()).isGreaterThanOrEqualTo(1.0).isNotCloseTo(exact, within(1e-9));
        BoxGrid fine = BoxGrid.of(sizes, 1 << 20);
        assertThat(fine.exact()).isTrue();
        for (int p = 0; p < boxes.size(); p++) {
            fine.add(new int[] {(int) points[0][2 * p], (int) points[1][2 * p]},
                    new int[] {(int) points[0][2 * p + 1], (int) points[1][2 * p + 1]});
        }
        assertThat(fine.overlap()).isCloseTo(exact, within(1e-9));
    }

    /**
     * Per column, the boxes' bounds as point indexes (2 × rank), in box order (low, high), followed by the
     * number of points.
     */
    private static long[][] pointIndexes(List<long[][]> boxes, int d) {
        long[][] out = new long[d][];
        for (int c = 0; c < d; c++) {
            TreeSet<Long> distinct = new TreeSet<>();
            for (long[][] box : boxes) {
                distinct.add(box[c][0]);
                distinct.add(box[c][1]);
            }
            List<Long> sorted = new ArrayList<>(distinct);
            out[c] = new long[2 * boxes.size() + 1];
            for (int p = 0; p < boxes.size(); p++) {
                out[c][2 * p] = 2L * sorted.indexOf(boxes.get(p)[c][0]);
                out[c][2 * p + 1] = 2L * sorted.indexOf(boxes.get(p)[c][1]);
            }
            out[c][2 * boxes.size()] = 2L * sorted.size() - 1;
        }
        return out;
    }

    /** Every point of the rank space: the boxes covering it, averaged over the points some box covers. */
    private static double bruteForce(List<long[][]> boxes, int d) {
        long[][] points = pointIndexes(boxes, d);
        long[] size = new long[d];
        long all = 1;
        for (int c = 0; c < d; c++) {
            size[c] = points[c][2 * boxes.size()];
            all *= size[c];
        }
        long covered = 0;
        long total = 0;
        for (long cell = 0; cell < all; cell++) {
            long rest = cell;
            int depth = 0;
            long[] at = new long[d];
            for (int c = 0; c < d; c++) {
                at[c] = rest % size[c];
                rest /= size[c];
            }
            for (int p = 0; p < boxes.size(); p++) {
                boolean inside = true;
                for (int c = 0; c < d && inside; c++) {
                    inside = points[c][2 * p] <= at[c] && at[c] <= points[c][2 * p + 1];
                }
                depth += inside ? 1 : 0;
            }
            covered += depth > 0 ? 1 : 0;
            total += depth;
        }
        return (double) total / covered;
    }
}
