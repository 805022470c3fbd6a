package io.stork.skipping.index;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.ColumnType;
import io.stork.skipping.Values;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexCollector;
import io.stork.skipping.spi.IndexType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.Map;
import org.apache.spark.util.sketch.BloomFilter;

/**
 * {@code bloom}: equality and {@code IN} on high-cardinality columns, through Spark's own bloom filter
 * ({@code spark-sketch}). Sized by {@code stork.skipping.bloom.items} (expected distinct values per part,
 * default 10,000) and {@code stork.skipping.bloom.fpp} (false-positive rate, default 0.01): about 12 KB
 * per column and part at the defaults: set the items to the distinct values a part holds. A part with
 * more distinct values answers correctly with more false positives; one so full that it would answer
 * "maybe" to more than half of all values keeps no filter.
 */
public final class BloomIndexType implements IndexType {

    public static final String NAME = "bloom";
    public static final String ITEMS_KEY = "stork.skipping.bloom.items";
    public static final String FPP_KEY = "stork.skipping.bloom.fpp";
    /** A filter whose bits say "maybe" more often than this is not kept. */
    static final double SATURATED = 0.5;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(ColumnType type) {
        return type != ColumnType.BOOLEAN;
    }

    @Override
    public IndexCollector newCollector(ColumnType type, Map<String, String> options) {
        long items = Long.parseLong(options.getOrDefault(ITEMS_KEY, "10000").trim());
        double fpp = Double.parseDouble(options.getOrDefault(FPP_KEY, "0.01").trim());
        if (items < 1 || !(fpp > 0 && fpp < 1)) {
            throw new IllegalArgumentException(ITEMS_KEY + " must be at least 1 and " + FPP_KEY
                    + " between 0 and 1 (exclusive)");
        }
        BloomFilter filter = BloomFilter.create(items, fpp);
        return new IndexCollector() {
            @Override
            public void add(Object value) {
                if (value != null) {
                    put(filter, type, Values.canonical(value));
                }
            }

            @Override
            public ColumnIndex finish() {
                // Sized for fewer values than the part had, a filter says "maybe" to nearly everything: it
                // would cost manifest bytes and skip nothing.
                return filter.expectedFpp() > SATURATED ? null : new Bloom(type, filter);
            }
        };
    }

    @Override
    public ColumnIndex fromJson(Object json, ColumnType type) {
        if (!(json instanceof String text)) {
            throw new IllegalArgumentException("a bloom filter is a base64 string");
        }
        try {
            return new Bloom(type, BloomFilter.readFrom(new ByteArrayInputStream(Base64.getDecoder().decode(text))));
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable bloom filter: " + e.getMessage(), e);
        }
    }

    private static void put(BloomFilter filter, ColumnType type, Object v) {
        switch (type) {
            case LONG -> filter.putLong((Long) v);
            case DOUBLE -> filter.putLong(Double.doubleToLongBits((Double) v));
            case DECIMAL -> filter.putString(((BigDecimal) v).toPlainString());
            case STRING -> filter.putString((String) v);
            case BOOLEAN -> throw new IllegalArgumentException("no bloom filter on booleans");
        }
    }

    private static boolean mightContain(BloomFilter filter, ColumnType type, Object v) {
        return switch (type) {
            case LONG -> filter.mightContainLong((Long) v);
            case DOUBLE -> filter.mightContainLong(Double.doubleToLongBits((Double) v));
            case DECIMAL -> filter.mightContainString(((BigDecimal) v).toPlainString());
            case STRING -> filter.mightContainString((String) v);
            case BOOLEAN -> true;
        };
    }

    record Bloom(ColumnType columnType, BloomFilter filter) implements ColumnIndex {

        @Override
        public String type() {
            return NAME;
        }

        @Override
        public boolean mayMatch(Predicate leaf, ColumnStatistics column) {
            if (leaf instanceof Comparison cmp && cmp.op() == Op.EQ && columnType.javaType().isInstance(cmp.literal())) {
                return mightContain(filter, columnType, Values.canonical(cmp.literal()));
            }
            return true; // IN arrives as one equality per value
        }

        @Override
        public Object toJson() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try {
                filter.writeTo(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Base64.getEncoder().encodeToString(bytes.toByteArray());
        }
    }
}
