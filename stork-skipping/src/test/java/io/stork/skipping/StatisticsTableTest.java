package io.stork.skipping;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.skipping.collect.PartStatisticsCollector;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.And;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.IsNotNull;
import io.stork.skipping.expr.Predicate.IsNull;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.expr.Predicate.Or;
import io.stork.skipping.spi.IndexTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The table answers the common filters (integer comparisons, null checks, AND/OR) from its arrays; it must
 * answer exactly as the evaluator does on the part's own statistics, edge values included.
 */
class StatisticsTableTest {

    @Test
    void answersFromTheArraysAsTheEvaluatorDoes() throws Exception {
        Random r = new Random(42);
        IndexTypes types = IndexTypes.of();
        SkippingSpec spec = SkippingSpec.of(List.of(Map.entry("a", ColumnType.LONG), Map.entry("b", ColumnType.LONG)),
                Map.of(), types);
        List<String> json = new ArrayList<>();
        List<PartStatistics> stats = new ArrayList<>();
        for (int part = 0; part < 300; part++) {
            PartStatisticsCollector c = spec.newCollector(types);
            for (int row = 0, n = r.nextInt(4); row < n; row++) {
                c.column(0).add(r.nextInt(5) == 0 ? null : (long) r.nextInt(7) - 3);
                c.column(1).add(r.nextInt(2) == 0 ? null : (long) r.nextInt(3));
                c.rowDone();
            }
            String text = StatisticsCodec.write(c.finish());
            json.add(part % 10 == 0 ? null : text);
            stats.add(StatisticsCodec.read(text, types).orElseThrow());
        }
        StatisticsTable table = StatisticsTable.of(json, types);
        int ruledOut = 0;
        for (int q = 0; q < 400; q++) {
            Predicate p = Evaluator.normalize(predicate(r, 2));
            for (int part = 0; part < stats.size(); part++) {
                boolean expected = json.get(part) == null || Evaluator.mayMatchNormalized(p, stats.get(part));
                assertThat(table.mayMatch(part, p, Evaluator.columns(p))).as("part %d, %s", part, p).isEqualTo(expected);
                ruledOut += expected ? 0 : 1;
            }
        }
        assertThat(ruledOut).isGreaterThan(10_000);
    }

    private static Predicate predicate(Random r, int depth) {
        String column = r.nextBoolean() ? "a" : "b";
        return switch (r.nextInt(depth > 0 ? 6 : 4)) {
            case 0, 1 -> new Comparison(column, Op.values()[r.nextInt(Op.values().length)], (long) r.nextInt(9) - 4);
            case 2 -> new IsNull(column);
            case 3 -> new IsNotNull(column);
            case 4 -> new And(predicate(r, depth - 1), predicate(r, depth - 1));
            default -> new Or(predicate(r, depth - 1), predicate(r, depth - 1));
        };
    }
}
