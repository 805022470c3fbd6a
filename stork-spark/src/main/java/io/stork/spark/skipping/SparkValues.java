package io.stork.spark.skipping;

import io.stork.skipping.ColumnType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark's types and internal values as skipping's {@link ColumnType}s and canonical values: integers,
 * dates (days) and timestamps (microseconds, UTC) as longs, exactly as Spark holds them, so no time zone
 * enters; floats widened to doubles (order kept); decimals as BigDecimal; strings by their UTF-8 bytes.
 */
public final class SparkValues {

    private SparkValues() {
    }

    /** The kind statistics are kept as, or null for a type they are not kept for (binary, arrays, ...). */
    public static ColumnType kind(DataType type) {
        if (type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType
                || type instanceof LongType || type instanceof DateType || type instanceof TimestampType
                || type instanceof TimestampNTZType) {
            return ColumnType.LONG;
        }
        if (type instanceof FloatType || type instanceof DoubleType) {
            return ColumnType.DOUBLE;
        }
        if (type instanceof DecimalType) {
            return ColumnType.DECIMAL;
        }
        if (type instanceof StringType) {
            return ColumnType.STRING; // bounds by bytes; only binary-collated predicates use them
        }
        if (type instanceof BooleanType) {
            return ColumnType.BOOLEAN;
        }
        return null;
    }

    /** A row's value at {@code ordinal} as a canonical value (or null), for a type {@link #kind} accepts. */
    public static Object get(InternalRow row, int ordinal, DataType type) {
        if (row.isNullAt(ordinal)) {
            return null;
        }
        if (type instanceof ByteType) {
            return (long) row.getByte(ordinal);
        }
        if (type instanceof ShortType) {
            return (long) row.getShort(ordinal);
        }
        if (type instanceof IntegerType || type instanceof DateType) {
            return (long) row.getInt(ordinal);
        }
        if (type instanceof LongType || type instanceof TimestampType || type instanceof TimestampNTZType) {
            return row.getLong(ordinal);
        }
        if (type instanceof FloatType) {
            return (double) row.getFloat(ordinal);
        }
        if (type instanceof DoubleType) {
            return row.getDouble(ordinal);
        }
        if (type instanceof DecimalType d) {
            return row.getDecimal(ordinal, d.precision(), d.scale()).toJavaBigDecimal();
        }
        if (type instanceof StringType) {
            return row.getUTF8String(ordinal).toString();
        }
        if (type instanceof BooleanType) {
            return row.getBoolean(ordinal);
        }
        throw new IllegalArgumentException("no statistics for " + type.simpleString());
    }

    /**
     * A Catalyst literal's value as a canonical value of {@code kind}, or null when it is not one (a
     * predicate with it is then left untranslated).
     */
    public static Object literal(Object value, DataType type, ColumnType kind) {
        if (value == null || kind(type) != kind) {
            return null;
        }
        if (value instanceof UTF8String s) {
            return s.toString();
        }
        if (value instanceof Decimal d) {
            return d.toJavaBigDecimal();
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return (double) f;
        }
        if (value instanceof Double || value instanceof Boolean) {
            return value;
        }
        return null;
    }
}
