package io.stork.spark.it;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Random rows of every type skipping handles (nulls, NaN, ±0.0, infinities, empty, whitespace-padded and
 * unicode strings, line breaks, timestamps, dates) and random predicates over them, mostly with values the
 * data holds: the generator of {@link DataSkippingPropertyStoreTest} and {@link LaidOutSkippingPropertyStoreTest}.
 */
final class RandomQueries {

    static final String[] STRINGS = {"", " a", "a ", "a", "ab", "abc", "abd", "b", "NA", "Zürich", "Zurich",
            "日本", "日本語", "😀", "😀x", "x\ny", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2", "it's", "back\\slash"};
    static final StructType SCHEMA = new StructType()
            .add("i", DataTypes.IntegerType).add("l", DataTypes.LongType).add("d", DataTypes.DoubleType)
            .add("f", DataTypes.FloatType).add("m", DataTypes.createDecimalType(12, 3)).add("s", DataTypes.StringType)
            .add("b", DataTypes.BooleanType).add("ts", DataTypes.TimestampType).add("dt", DataTypes.DateType)
            .add("p", DataTypes.IntegerType);
    static final StructType TEXT_SCHEMA = new StructType().add("s", DataTypes.StringType)
            .add("p", DataTypes.IntegerType);
    /** The columns of {@link #SCHEMA} predicates are made over. */
    static final List<String> COLUMNS = List.of("i", "l", "d", "f", "m", "s", "b", "ts", "dt");

    private final Random random;
    private final List<String> columns;
    private final boolean nullInLists;

    /**
     * Predicates over {@code columns} (of {@link #SCHEMA}, or doubles of any other name), with NULL in IN
     * lists only if {@code nullInLists}.
     */
    RandomQueries(Random random, List<String> columns, boolean nullInLists) {
        this.random = random;
        this.columns = List.copyOf(columns);
        this.nullInLists = nullInLists;
    }

    static List<Row> sorted(List<Row> rows) {
        List<Row> copy = new ArrayList<>(rows);
        copy.sort(java.util.Comparator.comparing(Row::toString));
        return copy;
    }

    static List<Row> rows(Random random, int count, boolean text) {
        List<Row> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            int p = random.nextInt(3);
            if (text) {
                rows.add(RowFactory.create(STRINGS[random.nextInt(STRINGS.length)], p));
                continue;
            }
            rows.add(RowFactory.create(
                    nullOr(random, random.nextInt(200) - 100),
                    nullOr(random, random.nextInt(20) == 0 ? Long.MIN_VALUE : (long) random.nextInt(1_000_000)),
                    nullOr(random, pick(random, new Double[] {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
                            Double.NEGATIVE_INFINITY, random.nextGaussian() * 100})),
                    nullOr(random, pick(random, new Float[] {Float.NaN, -0.0f, 1.5f, (float) random.nextGaussian()})),
                    nullOr(random, BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 3)),
                    nullOr(random, STRINGS[random.nextInt(STRINGS.length)]),
                    nullOr(random, random.nextBoolean()),
                    nullOr(random, Instant.ofEpochSecond(1_700_000_000L + random.nextInt(100_000_000),
                            random.nextInt(1_000_000) * 1000L)),
                    nullOr(random, LocalDate.ofEpochDay(18_000 + random.nextInt(3000))),
                    p));
        }
        return rows;
    }

    static <T> T pick(Random random, T[] options) {
        return options[random.nextInt(options.length)];
    }

    private static <T> T nullOr(Random random, T value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    /** A random predicate of up to {@code depth} levels of AND, OR and NOT over {@code values}' columns. */
    String predicate(List<Row> values, int depth) {
        int kind = random.nextInt(depth > 0 ? 10 : 7);
        if (kind >= 7) {
            String left = predicate(values, depth - 1);
            return switch (kind) {
                case 7 -> "(" + left + ") AND (" + predicate(values, depth - 1) + ")";
                case 8 -> "(" + left + ") OR (" + predicate(values, depth - 1) + ")";
                default -> "NOT (" + left + ")";
            };
        }
        String column = columns.get(random.nextInt(columns.size()));
        String literal = literal(random, values, column);
        String other = literal(random, values, column);
        return switch (kind) {
            case 0 -> column + " " + pick(random, new String[] {"=", "<", "<=", ">", ">=", "<=>", "!="}) + " " + literal;
            case 1 -> column + " BETWEEN " + literal + " AND " + other;
            case 2 -> column + " IN (" + inItem(literal, random, values, column) + ", " + inItem(other, random, values, column)
                    + (nullInLists && random.nextInt(4) == 0 ? ", NULL" : "") + ")";
            case 3 -> column + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            case 4 -> column.equals("s") ? prefix(random, values) : column + " = " + literal;
            case 5 -> literal + " " + pick(random, new String[] {"<", ">=", "="}) + " " + column;
            default -> column + " IN (" + inItem(literal, random, values, column) + ", "
                    + inItem(other, random, values, column) + ", " + inItem("NULL", random, values, column) + ")";
        };
    }

    /** An IN list item: NULL only where the format's own push-down takes it. */
    private String inItem(String literal, Random random, List<Row> values, String column) {
        if (!literal.equals("NULL") || nullInLists && random.nextBoolean()) {
            return literal;
        }
        for (int tries = 0; tries < 20; tries++) {
            String other = literal(random, values, column);
            if (!other.equals("NULL")) {
                return other;
            }
        }
        return literal(random, values, column).equals("NULL") ? "0" : literal(random, values, column);
    }

    private static String prefix(Random random, List<Row> values) {
        String s = (String) value(random, values, "s");
        if (s == null) {
            s = "a";
        }
        String prefix = s.substring(0, Math.min(s.length(), random.nextInt(4)));
        if (prefix.contains("%") || prefix.contains("_") || prefix.contains("\\")) {
            prefix = "a";
        }
        return random.nextBoolean() ? "s LIKE " + quote(prefix + "%") : "startswith(s, " + quote(prefix) + ")";
    }

    private static Object value(Random random, List<Row> values, String column) {
        Row row = values.get(random.nextInt(values.size()));
        return row.get(row.fieldIndex(column));
    }

    /** A literal of the column's type: mostly a value the data holds, sometimes NULL. */
    private static String literal(Random random, List<Row> values, String column) {
        Object v = value(random, values, column);
        if (v == null && random.nextInt(3) > 0) {
            v = value(random, values, column);
        }
        if (v == null) {
            return "NULL";
        }
        return switch (column) {
            case "i" -> v.toString();
            case "l" -> "CAST(" + v + " AS BIGINT)";
            case "d" -> "CAST('" + v + "' AS DOUBLE)";
            case "f" -> "CAST('" + v + "' AS FLOAT)";
            case "m" -> "CAST('" + ((BigDecimal) v).toPlainString() + "' AS DECIMAL(12,3))";
            case "s" -> quote((String) v);
            case "b" -> v.toString();
            case "ts" -> {
                Instant t = (Instant) v;
                long micros = t.getEpochSecond() * 1_000_000L + t.getNano() / 1000 + (random.nextInt(3) - 1);
                yield "timestamp_micros(" + micros + ")";
            }
            case "dt" -> "date_from_unix_date(" + (((LocalDate) v).toEpochDay() + random.nextInt(3) - 1) + ")";
            default -> {
                if (v instanceof Double) {
                    yield "CAST('" + v + "' AS DOUBLE)";
                }
                throw new IllegalArgumentException(column);
            }
        };
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r") + "'";
    }
}
