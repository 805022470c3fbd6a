package io.stork.skipping;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.skipping.collect.PartStatisticsCollector;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.And;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.In;
import io.stork.skipping.expr.Predicate.IsNotNull;
import io.stork.skipping.expr.Predicate.IsNull;
import io.stork.skipping.expr.Predicate.Not;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.expr.Predicate.Or;
import io.stork.skipping.expr.Predicate.StartsWith;
import io.stork.skipping.spi.IndexTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * No false negatives: for random parts (all column kinds, nulls, NaN, -0.0, long and unicode strings,
 * every index type) and random predicates, whenever a row of the part makes the predicate TRUE under SQL's
 * three-valued logic, the evaluator, reading the statistics back from their JSON, says the part may match.
 * Geo boxes over a pair of double columns are among the indexes.
 * Also checks that skipping happens at all (a filter that can never skip is no use).
 */
class EvaluatorPropertyTest {

    private static final String[] NAMES = {"l", "d", "m", "s", "b", "e"};
    private static final ColumnType[] TYPES = {ColumnType.LONG, ColumnType.DOUBLE, ColumnType.DECIMAL,
            ColumnType.STRING, ColumnType.BOOLEAN, ColumnType.DOUBLE};
    private static final String[] STRINGS = {"", "a", "ab", "abc", "abd", "b", "zz", "Zürich", "Zurich", "日本",
            "日本語", "😀", "😀x", "\uFFFD", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2"};

    @Test
    void noRowThatMatchesIsEverSkipped() throws Exception {
        Random random = new Random(20261124);
        IndexTypes types = IndexTypes.load(getClass().getClassLoader());
        int skipped = 0;
        int checks = 0;
        for (int part = 0; part < 400; part++) {
            List<Object[]> rows = rows(random);
            String indexes = switch (part % 4) {
                case 0 -> "";
                case 1 -> "l:values,s:values,d:values,m:values,b:values";
                case 2 -> "l:bloom,s:bloom,d:bloom,m:bloom";
                default -> "s:values,l:bloom";
            };
            // Half the parts also get geo boxes over the double pair (d, e), from 1 to 4 boxes.
            SkippingSpec spec = SkippingSpec.of(schema(), Map.of(SkippingSpec.INDEXES, indexes,
                    SkippingSpec.STRING_PREFIX, Integer.toString(1 + random.nextInt(8)),
                    "stork.skipping.values.max", Integer.toString(1 + random.nextInt(6)),
                    SkippingSpec.GEO, part % 8 < 4 ? "d:e" : "",
                    SkippingSpec.GEO_BOXES, Integer.toString(1 + random.nextInt(4))), types);
            PartStatisticsCollector collector = spec.newCollector(types);
            for (Object[] row : rows) {
                for (int c = 0; c < row.length; c++) {
                    collector.column(c).add(row[c]);
                }
                collector.rowDone();
            }
            String json = StatisticsCodec.write(collector.finish());
            PartStatistics stats = StatisticsCodec.read(json, types).orElseThrow();
            // The columnar table of a generation answers exactly as the part's own statistics do (a part
            // without statistics beside it, which may always match).
            StatisticsTable table = StatisticsTable.of(java.util.Arrays.asList(null, json), types);
            // The same part kept in a segment: its statistics block, the block's table, and the block decoded
            // back to JSON answer the same.
            byte[] block = new StatisticsBlock().encode(java.util.Arrays.asList(null, json));
            StatisticsTable fromBlock = StatisticsTable.of(block, types);
            PartStatistics decoded = StatisticsCodec.read(new StatisticsBlock().decode(block).get(1), types).orElseThrow();
            assertThat(new StatisticsBlock().decode(block).get(0)).isNull();
            for (int q = 0; q < 60; q++) {
                Predicate p = predicate(random, 3);
                boolean matches = rows.stream().anyMatch(r -> SqlTruth.of(p, r) == Boolean.TRUE);
                boolean may = Evaluator.mayMatch(p, stats);
                Predicate normalized = Evaluator.normalize(p);
                assertThat(table.mayMatch(1, normalized, Evaluator.columns(p))).as("table, %s", p).isEqualTo(may);
                assertThat(table.mayMatch(0, normalized, Evaluator.columns(p))).isTrue();
                assertThat(fromBlock.mayMatch(1, normalized, Evaluator.columns(p))).as("block, %s", p).isEqualTo(may);
                assertThat(fromBlock.mayMatch(0, normalized, Evaluator.columns(p))).isTrue();
                assertThat(Evaluator.mayMatch(p, decoded)).as("decoded, %s", p).isEqualTo(may);
                checks++;
                if (matches) {
                    assertThat(may).as("part %s, predicate %s, stats %s", rows.stream().map(java.util.Arrays::toString).toList(), p, StatisticsCodec.write(stats)).isTrue();
                } else if (!may) {
                    skipped++;
                }
            }
        }
        assertThat(checks).isEqualTo(24_000);
        assertThat(skipped).as("parts ruled out").isGreaterThan(checks / 10);
    }

    private static List<Map.Entry<String, ColumnType>> schema() {
        List<Map.Entry<String, ColumnType>> schema = new ArrayList<>();
        for (int i = 0; i < NAMES.length; i++) {
            schema.add(Map.entry(NAMES[i], TYPES[i]));
        }
        return schema;
    }

    private static List<Object[]> rows(Random r) {
        int n = r.nextInt(6);
        // A narrow alphabet per part, so that string bounds land everywhere, cut ones included.
        String[] strings = {STRINGS[r.nextInt(STRINGS.length)], STRINGS[r.nextInt(STRINGS.length)]};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object[] row = new Object[NAMES.length];
            for (int c = 0; c < NAMES.length; c++) {
                row[c] = r.nextInt(6) == 0 ? null
                        : TYPES[c] == ColumnType.STRING ? strings[r.nextInt(2)] : value(r, TYPES[c]);
            }
            rows.add(row);
        }
        return rows;
    }

    static Object value(Random r, ColumnType type) {
        return switch (type) {
            case LONG -> (long) (r.nextInt(21) - 10) * (r.nextInt(10) == 0 ? Long.MAX_VALUE / 10 : 1);
            case DOUBLE -> switch (r.nextInt(12)) {
                case 0 -> Double.NaN;
                case 1 -> -0.0d;
                case 2 -> Double.POSITIVE_INFINITY;
                case 3 -> Double.NEGATIVE_INFINITY;
                default -> (r.nextInt(21) - 10) / 2.0;
            };
            case DECIMAL -> new BigDecimal(r.nextInt(21) - 10).movePointLeft(r.nextInt(3)).setScale(2 + r.nextInt(2));
            case STRING -> STRINGS[r.nextInt(STRINGS.length)];
            case BOOLEAN -> r.nextBoolean();
        };
    }

    private static Predicate predicate(Random r, int depth) {
        int kind = r.nextInt(depth > 0 ? 10 : 7);
        int c = r.nextInt(NAMES.length);
        String col = NAMES[c];
        return switch (kind) {
            case 0, 1, 2 -> new Comparison(col, Op.values()[r.nextInt(Op.values().length)], value(r, TYPES[c]));
            case 3 -> {
                List<Object> values = new ArrayList<>();
                for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
                    values.add(value(r, TYPES[c]));
                }
                yield new In(col, values, r.nextInt(3) == 0);
            }
            case 4 -> r.nextBoolean() ? new IsNull(col) : new IsNotNull(col);
            case 5 -> new StartsWith("s", Values.prefix(STRINGS[r.nextInt(STRINGS.length)], r.nextInt(4)));
            case 6 -> new Predicate.Unknown("x");
            case 7 -> new And(predicate(r, depth - 1), predicate(r, depth - 1));
            case 8 -> new Or(predicate(r, depth - 1), predicate(r, depth - 1));
            default -> new Not(predicate(r, depth - 1));
        };
    }

    /** The reference: SQL's three-valued truth of a predicate on one row (null = unknown), Spark's ordering. */
    static final class SqlTruth {
        static Boolean of(Predicate p, Object[] row) {
            if (p instanceof And a) {
                Boolean l = of(a.left(), row);
                Boolean rr = of(a.right(), row);
                if (l == Boolean.FALSE || rr == Boolean.FALSE) {
                    return false;
                }
                return l == null || rr == null ? null : true;
            }
            if (p instanceof Or o) {
                Boolean l = of(o.left(), row);
                Boolean rr = of(o.right(), row);
                if (l == Boolean.TRUE || rr == Boolean.TRUE) {
                    return true;
                }
                return l == null || rr == null ? null : false;
            }
            if (p instanceof Not n) {
                Boolean v = of(n.child(), row);
                return v == null ? null : !v;
            }
            if (p instanceof Predicate.Unknown) {
                return null; // could be anything: treat as unknown (never TRUE, so it never forces a match)
            }
            if (p instanceof IsNull n) {
                return row[index(n.column())] == null;
            }
            if (p instanceof IsNotNull n) {
                return row[index(n.column())] != null;
            }
            if (p instanceof Comparison cmp) {
                int i = index(cmp.column());
                Object x = row[i];
                if (x == null) {
                    return null;
                }
                int c = Values.compare(TYPES[i], Values.canonical(x), Values.canonical(cmp.literal()));
                return switch (cmp.op()) {
                    case EQ -> c == 0;
                    case NOT_EQ -> c != 0;
                    case LT -> c < 0;
                    case LT_EQ -> c <= 0;
                    case GT -> c > 0;
                    case GT_EQ -> c >= 0;
                };
            }
            if (p instanceof In in) {
                int i = index(in.column());
                Object x = row[i];
                if (x == null) {
                    return null;
                }
                boolean found = in.values().stream().anyMatch(v -> Values.compare(TYPES[i], Values.canonical(x),
                        Values.canonical(v)) == 0);
                return in.negated() != found;
            }
            if (p instanceof StartsWith sw) {
                Object x = row[index(sw.column())];
                return x == null ? null : ((String) x).startsWith(sw.prefix());
            }
            throw new IllegalArgumentException(p.toString());
        }

        private static int index(String column) {
            for (int i = 0; i < NAMES.length; i++) {
                if (NAMES[i].equals(column)) {
                    return i;
                }
            }
            throw new IllegalArgumentException(column);
        }
    }
}
