package io.stork.layout.model;

import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;

/**
 * The value types a layout can split on, held in one canonical Java form each so that keys compare the
 * same whichever boxed type a writer hands over: LONG and TIMESTAMP as {@link Long} (timestamps in
 * microseconds since the epoch, UTC, as Spark holds them, so session time zones never enter a split),
 * DOUBLE as {@link Double} (NaN above +Infinity, -0.0 = 0.0, as Spark orders them), STRING as
 * {@link String} in natural (UTF-16) order.
 */
public enum ColumnType {
    LONG, DOUBLE, TIMESTAMP, STRING;

    /** Nulls first: a null key value routes to the lowest side of every split on its column. */
    private static final Comparator<Object> ORDER = Comparator.nullsFirst(ColumnType::compareNonNull);

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ColumnType fromJsonName(String name) {
        for (ColumnType t : values()) {
            if (t.jsonName().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown column type '" + name + "' (long, double, timestamp, string)");
    }

    public Comparator<Object> order() {
        return ORDER;
    }

    public int compare(Object a, Object b) {
        return ORDER.compare(a, b);
    }

    /** The canonical form of {@code value}; IllegalArgumentException if this type cannot hold it. */
    public Object canonical(String column, Object value) {
        if (value == null) {
            return null;
        }
        Object c = switch (this) {
            case LONG -> value instanceof Long || value instanceof Integer || value instanceof Short
                    || value instanceof Byte ? ((Number) value).longValue() : null;
            case DOUBLE -> value instanceof Double || value instanceof Float || value instanceof Long
                    || value instanceof Integer ? canonicalDouble(((Number) value).doubleValue()) : null;
            case TIMESTAMP -> value instanceof Long l ? l
                    : value instanceof Instant i ? Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L),
                            i.getNano() / 1000) : null;
            case STRING -> value instanceof CharSequence s ? s.toString() : null;
        };
        if (c == null) {
            throw new IllegalArgumentException("column '" + column + "' of type " + jsonName()
                    + " cannot hold a " + value.getClass().getName() + " (" + value + ")");
        }
        return c;
    }

    /**
     * A position of {@code value} on a numeric axis, used only to weigh box extents (compactness): the
     * value itself for numbers; strings have no metric, so the builder uses ranks for them instead.
     */
    public double axis(Object value) {
        return switch (this) {
            case LONG, TIMESTAMP -> ((Long) value).doubleValue();
            case DOUBLE -> (Double) value;
            case STRING -> throw new IllegalStateException("strings have no numeric axis");
        };
    }

    private static Double canonicalDouble(double d) {
        return d == 0.0 ? 0.0 : d;
    }

    @SuppressWarnings("unchecked")
    private static int compareNonNull(Object a, Object b) {
        return ((Comparable<Object>) a).compareTo(b);
    }
}
