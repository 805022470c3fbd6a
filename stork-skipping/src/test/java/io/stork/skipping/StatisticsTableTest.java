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

    @Test
    void aTableFilledOnAllCoresHoldsWhatEachPartSaid() throws Exception {
        // Many blocks of parts (filled in parallel), every kind of column and index, column names that differ
        // in case between parts, and statistics that are unreadable or of a newer version (never ruled out).
        Random r = new Random(7);
        IndexTypes types = IndexTypes.load(getClass().getClassLoader());
        List<String> json = new ArrayList<>();
        List<PartStatistics> stats = new ArrayList<>();
        for (int part = 0; part < 20_000; part++) {
            String id = part % 3 == 0 ? "ID" : "id";
            SkippingSpec spec = SkippingSpec.of(List.of(Map.entry(id, ColumnType.LONG), Map.entry("x", ColumnType.DOUBLE),
                    Map.entry("s", ColumnType.STRING), Map.entry("d", ColumnType.DECIMAL)),
                    Map.of(SkippingSpec.INDEXES, part % 2 == 0 ? "s:values" : "s:bloom", SkippingSpec.STRING_PREFIX, "3"), types);
            PartStatisticsCollector c = spec.newCollector(types);
            for (int row = 0, n = r.nextInt(5); row < n; row++) {
                c.column(0).add(r.nextInt(6) == 0 ? null : (Object) ((long) (part / 100) + r.nextInt(3)));
                int kind = r.nextInt(6);
                c.column(1).add(kind == 0 ? (Object) Double.NaN : kind == 1 ? null : (Object) (r.nextDouble() * 10));
                c.column(2).add(r.nextInt(6) == 0 ? null : "k" + r.nextInt(20) + "-tail");
                c.column(3).add(r.nextInt(6) == 0 ? null : java.math.BigDecimal.valueOf(r.nextInt(1000), 2));
                c.rowDone();
            }
            String text = StatisticsCodec.write(c.finish());
            json.add(switch (part % 97) {
                case 5 -> null;
                case 6 -> "{\"v\":1,\"columns\":{}}"; // no row count: unreadable
                case 7 -> text.replace("\"v\":1", "\"v\":99"); // a newer writer's
                default -> text;
            });
            stats.add(part % 97 >= 5 && part % 97 <= 7 ? null : StatisticsCodec.read(text, types).orElseThrow());
        }
        StatisticsTable table = StatisticsTable.of(json, types);
        int ruledOut = 0;
        for (int q = 0; q < 40; q++) {
            Predicate p = Evaluator.normalize(switch (q % 5) {
                case 0 -> new Comparison(r.nextBoolean() ? "id" : "Id", Op.values()[r.nextInt(Op.values().length)],
                        (long) r.nextInt(220));
                case 1 -> new Comparison("x", Op.values()[r.nextInt(Op.values().length)], r.nextDouble() * 12);
                case 2 -> new Predicate.In("s", List.of("k" + r.nextInt(25) + "-tail", "k" + r.nextInt(25) + "-tail"), false);
                case 3 -> new Predicate.StartsWith("s", "k1" + r.nextInt(3));
                default -> new And(new Comparison("d", Op.GT_EQ, java.math.BigDecimal.valueOf(r.nextInt(1000), 2)),
                        new IsNotNull("x"));
            });
            for (int part = 0; part < stats.size(); part++) {
                boolean expected = stats.get(part) == null || Evaluator.mayMatchNormalized(p, stats.get(part));
                assertThat(table.mayMatch(part, p, Evaluator.columns(p))).as("part %d, %s", part, p).isEqualTo(expected);
                assertThat(table.hasStatistics(part)).isEqualTo(stats.get(part) != null);
                ruledOut += expected ? 0 : 1;
            }
        }
        assertThat(ruledOut).isGreaterThan(200_000);
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
