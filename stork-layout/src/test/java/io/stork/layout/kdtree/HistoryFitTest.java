package io.stork.layout.kdtree;

import io.stork.layout.model.Box;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.Range;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class HistoryFitTest {

    private static final List<Column> XY = List.of(Column.of("x", ColumnType.DOUBLE), Column.of("y", ColumnType.DOUBLE));

    /** 4,000 rows uniform over the unit square. */
    private static List<Object[]> square() {
        Random r = new Random(3);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            rows.add(new Object[] {r.nextDouble(), r.nextDouble()});
        }
        return rows;
    }

    /** A tree of {@code buckets} built on {@code column} alone (the other column never split). */
    private static KdNode splitOn(int column, List<Object[]> rows, int buckets) {
        List<Column> one = List.of(XY.get(column));
        KdTreeModel model = KdTreeBuilder.of(one, buckets).build(rows.stream().map(r -> new Object[] {r[column]}).toList());
        return lift(model.root(), column);
    }

    private static KdNode lift(KdNode n, int column) {
        if (n instanceof KdNode.Split s) {
            return new KdNode.Split(column, s.value(), lift(s.left(), column), lift(s.right(), column));
        }
        KdNode.Leaf leaf = (KdNode.Leaf) n;
        Range[] ranges = {Range.ALL, Range.ALL};
        ranges[column] = leaf.box().range(0);
        ranges[1 - column] = Range.of(0.0, 1.0);
        return new KdNode.Leaf(leaf.bucket(), leaf.sampleRows(), Box.of(ranges));
    }

    private static SplitChooser.Weighted query(double weight, Range x, Range y) {
        return new SplitChooser.Weighted(weight, Box.of(x, y));
    }

    @Test
    void aTreeCutAcrossTheQueriesNarrowSide_readsLessForWhatTheySelect() {
        List<Object[]> rows = square();
        // Strips narrow in x, the whole of y: a tree of x slices serves them, a tree of y slices cannot.
        List<SplitChooser.Weighted> strips = List.of(query(1, Range.of(0.40, 0.42), Range.ALL),
                query(1, Range.of(0.70, 0.72), Range.ALL));
        HistoryFit fit = new HistoryFit(XY, strips, rows);
        double byX = fit.score(splitOn(0, rows, 8));
        double byY = fit.score(splitOn(1, rows, 8));
        // A strip of 2% placed anywhere reads one slice of 8 (12.5%), sometimes two: about 6 to 12 times what
        // it selects. Across y slices it reads all 8: about 50 times.
        assertThat(byX).isBetween(5.0, 13.0);
        assertThat(byY).isGreaterThan(40.0);
        assertThat(new HistoryFit(XY, strips, rows).score(splitOn(0, rows, 8))).isEqualTo(byX);
    }

    @Test
    void selectiveQueriesAreWeighedUp_byThePowerOfHowLittleTheySelect() {
        List<Object[]> rows = square();
        List<SplitChooser.Weighted> two = List.of(query(1, Range.of(0.1, 0.2), Range.of(0.1, 0.2)),
                query(1, Range.of(0.0, 0.5), Range.of(0.0, 0.8)));
        HistoryFit fit = new HistoryFit(XY, two, rows);
        assertThatThrownBy(() -> fit.weighted(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("score a tree before");
        fit.score(splitOn(0, rows, 4));

        assertThat(fit.weighted(0)).extracting(SplitChooser.Weighted::weight).containsExactly(1.0, 1.0);
        // Moved over the square, a 0.1 × 0.1 box selects about 1% of the rows (less at the edges), the
        // 0.5 × 0.8 box about 40%: weighed by their inverse selectivity, about 100 against 2.5.
        List<SplitChooser.Weighted> once = fit.weighted(1);
        double ratio = once.get(0).weight() / once.get(1).weight();
        assertThat(ratio).isBetween(20.0, 80.0);
        List<SplitChooser.Weighted> twice = fit.weighted(2);
        assertThat(twice.get(0).weight() / twice.get(1).weight()).isCloseTo(ratio * ratio, within(ratio * ratio * 1e-9));
        assertThat(once.get(0).box()).isEqualTo(two.get(0).box());
    }
}
