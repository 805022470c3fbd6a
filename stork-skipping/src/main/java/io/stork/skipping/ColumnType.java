package io.stork.skipping;

import java.math.BigDecimal;

/**
 * The kinds of values statistics are kept for, each with one canonical Java type so that writers, the
 * manifest and predicates compare the same way. Spark's types map onto them (dates as days since the
 * epoch, timestamps as microseconds, exactly as Spark holds them internally), so a time zone never enters
 * a comparison.
 */
public enum ColumnType {
    /** Integers of any width, dates (days) and timestamps (microseconds): {@link Long}. */
    LONG("long", Long.class),
    /** Floats and doubles: {@link Double}; NaN counted apart, -0.0 taken as 0.0 (Spark's ordering). */
    DOUBLE("double", Double.class),
    /** Decimals: {@link BigDecimal}, compared by value (1.0 = 1.00). */
    DECIMAL("decimal", BigDecimal.class),
    /** Strings: {@link String}, compared by their UTF-8 bytes (Spark's ordering), bounds cut to a prefix. */
    STRING("string", String.class),
    /** Booleans: {@link Boolean}, false before true. */
    BOOLEAN("boolean", Boolean.class);

    private final String jsonName;
    private final Class<?> javaType;

    ColumnType(String jsonName, Class<?> javaType) {
        this.jsonName = jsonName;
        this.javaType = javaType;
    }

    public String jsonName() {
        return jsonName;
    }

    public Class<?> javaType() {
        return javaType;
    }

    public static ColumnType fromJsonName(String name) {
        for (ColumnType type : values()) {
            if (type.jsonName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown column type '" + name + "'");
    }
}
