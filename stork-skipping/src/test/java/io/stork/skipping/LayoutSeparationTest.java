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
        assertThat(s.perColumn().get(0).byValue()).isTrue();
        assertThat(s.span()).isCloseTo(10.0 / 40, within(1e-12)); // 10 of the 40 values 0 to 39
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
    void partialOverlapCountsTheSharedValues() {
        // [0,10] and [5,15]: 11 values each, 16 covered; 5 to 10 twice.
        LayoutSeparation s = LayoutSeparation.over(List.of("x")).add(part("x", 0L, 10L)).add(part("x", 5L, 15L)).result();
        assertThat(s.overlap()).isCloseTo(22.0 / 16, within(1e-12));
        assertThat(s.span()).isCloseTo(11.0 / 16, within(1e-12));
        // Touching at one value: that value twice.
        LayoutSeparation touching = LayoutSeparation.over(List.of("x")).add(part("x", 0L, 10L))
                .add(part("x", 10L, 20L)).result();
        assertThat(touching.overlap()).isCloseTo(22.0 / 21, within(1e-12));
        // Doubles by length: [0, 3] and [1, 2] share a third of the 3 covered.
        LayoutSeparation lengths = LayoutSeparation.over(List.of("x")).add(part("x", 0.0, 3.0))
                .add(part("x", 1.0, 2.0)).result();
        assertThat(lengths.overlap()).isCloseTo(4.0 / 3, within(1e-12));
        assertThat(lengths.span()).isCloseTo((1 + 1.0 / 3) / 2, within(1e-12));
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
        assertThat(s.span()).isCloseTo(9.0 / 19 * 9.0 / 19, within(1e-12)); // 9 of the extent's 19 per column
    }

    @Test
    void singleValuesAndInfinitiesAreWeighedByRank() {
        // Each part one double value: no length anywhere, so ranks (disjoint points: 1).
        LayoutSeparation points = LayoutSeparation.over(List.of("x")).add(part("x", 1.0, 1.0))
                .add(part("x", 2.0, 2.0)).add(part("x", 2.0, 2.0)).result();
        assertThat(points.perColumn().get(0).byValue()).isFalse();
        assertThat(points.overlap()).isCloseTo(3.0 / 2, within(1e-12));
        // An infinite bound has no finite length: ranks. [-inf, 0] and [0, 1]: bounds -inf 0 1, 5 points.
        LayoutSeparation infinite = LayoutSeparation.over(List.of("x")).add(part("x", Double.NEGATIVE_INFINITY, 0.0))
                .add(part("x", 0.0, 1.0)).result();
        assertThat(infinite.perColumn().get(0).byValue()).isFalse();
        assertThat(infinite.overlap()).isCloseTo(6.0 / 5, within(1e-12));
        // Boxes each flat on a column by length (x one value in the first, y in the second): by rank.
        LayoutSeparation flat = LayoutSeparation.over(List.of("x", "y")).add(part("x", 0.0, 0.0, "y", 0.0, 9.0))
                .add(part("x", 1.0, 5.0, "y", 3.0, 3.0)).result();
        assertThat(flat.overlap()).isEqualTo(1.0);
        assertThat(flat.boxParts()).isEqualTo(2);
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

    /** Random integer boxes in three columns against a count at every value of the extent. */
    @Test
    void agreesWithCountingEveryValue() {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            List<long[][]> boxes = randomBoxes(random, 1 + random.nextInt(12), round % 2 == 0 ? 4 : 20);
            LayoutSeparation.Builder b = LayoutSeparation.over(List.of("a", "b", "c"));
            boxes.forEach(box -> b.add(part("a", box[0][0], box[0][1], "b", box[1][0], box[1][1], "c", box[2][0],
                    box[2][1])));
            LayoutSeparation s = b.result();
            assertThat(s.boxExact()).isTrue();
            assertThat(s.overlap()).as("round %d", round).isCloseTo(everyValue(boxes, 3, 40), within(1e-9));
            for (int c = 0; c < 3; c++) {
                int column = c;
                assertThat(s.perColumn().get(c).overlap()).isCloseTo(everyValue(boxes.stream()
                        .map(box -> new long[][] {box[column]}).toList(), 1, 40), within(1e-9));
            }
        }
    }

    /** The same boxes as strings (no distance): against a count at every point of the rank space. */
    @Test
    void stringsAgreeWithCountingEveryRank() {
        Random random = new Random(9);
        for (int round = 0; round < 20; round++) {
            List<long[][]> boxes = randomBoxes(random, 1 + random.nextInt(12), round % 2 == 0 ? 4 : 20);
            LayoutSeparation.Builder b = LayoutSeparation.over(List.of("a", "b"));
            boxes.forEach(box -> b.add(part("a", text(box[0][0]), text(box[0][1]), "b", text(box[1][0]),
                    text(box[1][1]))));
            LayoutSeparation s = b.result();
            assertThat(s.perColumn().get(0).byValue()).isFalse();
            assertThat(s.overlap()).as("round %d", round).isCloseTo(everyRank(boxes, 2), within(1e-9));
        }
    }

    /** Coarser cells than pieces: each box widened to the cells it touches, an approximation; finer, exact. */
    @Test
    void aCoarseGridCountsWidenedBoxes() {
        List<long[][]> boxes = new ArrayList<>();
        Random random = new Random(11);
        for (int p = 0; p < 30; p++) {
            long x = random.nextInt(1000);
            long y = random.nextInt(1000);
            boxes.add(new long[][] {{x, x + 10}, {y, y + 10}});
        }
        KeyAxis[] axes = new KeyAxis[2];
        for (int c = 0; c < 2; c++) {
            int column = c;
            axes[c] = KeyAxis.of(ColumnType.LONG, boxes.stream().map(box -> (Object) box[column][0]).toArray(),
                    boxes.stream().map(box -> (Object) box[column][1]).toArray());
        }
        double exact = everyValue(boxes, 2, 1010);
        BoxGrid coarse = BoxGrid.of(axes, 64);
        assertThat(coarse.exact()).isFalse();
        BoxGrid fine = BoxGrid.of(axes, 1 << 20);
        assertThat(fine.exact()).isTrue();
        for (int p = 0; p < boxes.size(); p++) {
            coarse.add(p);
            fine.add(p);
        }
        assertThat(coarse.overlap()).isGreaterThanOrEqualTo(1.0).isNotCloseTo(exact, within(1e-9));
        assertThat(fine.overlap()).isCloseTo(exact, within(1e-9));
    }

    private static List<long[][]> randomBoxes(Random random, int n, int maxWidth) {
        List<long[][]> boxes = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            long[][] box = new long[3][];
            for (int c = 0; c < 3; c++) {
                long x = random.nextInt(20);
                box[c] = new long[] {x, x + random.nextInt(maxWidth)};
            }
            boxes.add(box);
        }
        return boxes;
    }

    private static String text(long v) {
        return String.format("v%03d", v);
    }

    /** Every integer from 0 to {@code limit}: the boxes holding it, averaged over the values some box holds. */
    private static double everyValue(List<long[][]> boxes, int d, int limit) {
        long covered = 0;
        long total = 0;
        long[] at = new long[d];
        while (true) {
            int depth = 0;
            for (long[][] box : boxes) {
                boolean inside = true;
                for (int c = 0; c < d && inside; c++) {
                    inside = box[c][0] <= at[c] && at[c] <= box[c][1];
                }
                depth += inside ? 1 : 0;
            }
            covered += depth > 0 ? 1 : 0;
            total += depth;
            int c = 0;
            while (c < d && ++at[c] > limit) {
                at[c++] = 0;
            }
            if (c == d) {
                return (double) total / covered;
            }
        }
    }

    /** Every point of the rank space (each distinct bound, each gap between two): as {@link #everyValue}. */
    private static double everyRank(List<long[][]> boxes, int d) {
        List<List<Long>> distinct = new ArrayList<>();
        for (int c = 0; c < d; c++) {
            TreeSet<Long> values = new TreeSet<>();
            for (long[][] box : boxes) {
                values.add(box[c][0]);
                values.add(box[c][1]);
            }
            distinct.add(new ArrayList<>(values));
        }
        List<long[][]> ranked = boxes.stream().map(box -> {
            long[][] r = new long[d][];
            for (int c = 0; c < d; c++) {
                r[c] = new long[] {2L * distinct.get(c).indexOf(box[c][0]), 2L * distinct.get(c).indexOf(box[c][1])};
            }
            return r;
        }).toList();
        return everyValue(ranked, d, 4 * boxes.size());
    }
}
