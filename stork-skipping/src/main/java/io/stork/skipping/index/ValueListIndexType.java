package io.stork.skipping.index;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.ColumnType;
import io.stork.skipping.ValueJson;
import io.stork.skipping.Values;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.In;
import io.stork.skipping.expr.Predicate.StartsWith;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexCollector;
import io.stork.skipping.spi.IndexType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code values}: the distinct non-null values of a low-cardinality column, exactly; a part that holds
 * more than {@code stork.skipping.values.max} (default 32) keeps a bloom filter of them instead, sized for
 * what it has seen.
 */
public final class ValueListIndexType implements IndexType {

    public static final String NAME = "values";
    public static final String MAX_KEY = "stork.skipping.values.max";
    static final int DEFAULT_MAX = 32;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(ColumnType type) {
        return true;
    }

    @Override
    public IndexCollector newCollector(ColumnType type, Map<String, String> options) {
        int max = Integer.parseInt(options.getOrDefault(MAX_KEY, Integer.toString(DEFAULT_MAX)).trim());
        return new Collector(type, max, options);
    }

    @Override
    public ColumnIndex fromJson(Object json, ColumnType type) {
        if (!(json instanceof List<?> items)) {
            throw new IllegalArgumentException("a value list is a JSON array");
        }
        List<Object> values = new ArrayList<>();
        for (Object item : items) {
            values.add(ValueJson.fromJson(type, item));
        }
        return new ValueList(type, values);
    }

    private static final class Collector implements IndexCollector {
        private final ColumnType type;
        private final int max;
        private final Map<String, String> options;
        private TreeSet<Object> values;
        private IndexCollector overflow;

        Collector(ColumnType type, int max, Map<String, String> options) {
            this.type = type;
            this.max = max;
            this.options = options;
            this.values = new TreeSet<>((a, b) -> Values.compare(type, a, b));
        }

        @Override
        public void add(Object value) {
            if (value == null) {
                return;
            }
            if (overflow != null) {
                overflow.add(value);
                return;
            }
            values.add(Values.canonical(value));
            if (values.size() > max && type != ColumnType.BOOLEAN) { // two values at most: always a list
                overflow = new BloomIndexType().newCollector(type, options);
                for (Object v : values) {
                    overflow.add(v);
                }
                values = null;
            }
        }

        @Override
        public ColumnIndex finish() {
            return overflow != null ? overflow.finish() : new ValueList(type, new ArrayList<>(values));
        }
    }

    /** The distinct values, sorted in Spark's order. */
    record ValueList(ColumnType columnType, List<Object> values) implements ColumnIndex {

        @Override
        public String type() {
            return NAME;
        }

        @Override
        public boolean mayMatch(Predicate leaf, ColumnStatistics column) {
            if (leaf instanceof Comparison cmp && columnType.javaType().isInstance(cmp.literal())) {
                Object v = Values.canonical(cmp.literal());
                for (Object x : values) {
                    int c = Values.compare(columnType, x, v);
                    boolean hit = switch (cmp.op()) {
                        case EQ -> c == 0;
                        case NOT_EQ -> c != 0;
                        case LT -> c < 0;
                        case LT_EQ -> c <= 0;
                        case GT -> c > 0;
                        case GT_EQ -> c >= 0;
                    };
                    if (hit) {
                        return true;
                    }
                }
                return false;
            }
            if (leaf instanceof In in && in.negated()) {
                for (Object x : values) {
                    boolean listed = false;
                    for (Object v : in.values()) {
                        listed |= columnType.javaType().isInstance(v)
                                && Values.compare(columnType, x, Values.canonical(v)) == 0;
                    }
                    if (!listed) {
                        return true;
                    }
                }
                return false;
            }
            if (leaf instanceof StartsWith sw && columnType == ColumnType.STRING) {
                return values.stream().anyMatch(x -> ((String) x).startsWith(sw.prefix()));
            }
            return true;
        }

        @Override
        public Object toJson() {
            return values.stream().map(v -> ValueJson.toJson(columnType, v)).toList();
        }
    }
}
