package io.stork.skipping;

import java.math.BigDecimal;

/**
 * Canonical values as JSON values (plain Java, see {@link io.stork.skipping.spi.IndexType}): longs and
 * finite doubles as numbers, decimals as strings (no precision lost to a double), non-finite doubles as
 * "NaN", "Infinity", "-Infinity". For index plug-ins as well.
 */
public final class ValueJson {

    private ValueJson() {
    }

    public static Object toJson(ColumnType type, Object value) {
        return switch (type) {
            case LONG, STRING, BOOLEAN -> value;
            case DOUBLE -> Double.isFinite((Double) value) ? value : value.toString();
            case DECIMAL -> ((BigDecimal) value).toPlainString();
        };
    }

    /** The canonical value of a JSON value; IllegalArgumentException if it is not one of {@code type}. */
    public static Object fromJson(ColumnType type, Object json) {
        try {
            return switch (type) {
                case LONG -> (Long) json;
                case DOUBLE -> json instanceof String s ? Double.parseDouble(s)
                        : Values.canonical(((Number) json).doubleValue());
                case DECIMAL -> Values.canonical(new BigDecimal((String) json));
                case STRING -> (String) json;
                case BOOLEAN -> (Boolean) json;
            };
        } catch (ClassCastException | NumberFormatException e) {
            throw new IllegalArgumentException("a " + type.jsonName() + " value was expected, not " + json);
        }
    }
}
