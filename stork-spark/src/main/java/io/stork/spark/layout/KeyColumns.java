package io.stork.spark.layout;

import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * The key columns of a layout within a DataFrame's rows: where each is and which layout type its Spark type
 * maps to (integers → long, floating point and decimals → double, dates and timestamps → timestamp in
 * microseconds since the epoch, UTC; strings → string). Serializable: every task extracts keys with it.
 */
final class KeyColumns implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private final String[] names;
    private final int[] ordinals;
    private final ColumnType[] types;

    private KeyColumns(String[] names, int[] ordinals, ColumnType[] types) {
        this.names = names;
        this.ordinals = ordinals;
        this.types = types;
    }

    /** The columns {@code names} of {@code schema}, typed from their Spark types; one-line errors. */
    static KeyColumns resolve(StructType schema, List<String> names) {
        if (names == null || names.isEmpty()) {
            throw new IllegalArgumentException("a layout needs at least one key column");
        }
        String[] resolved = new String[names.size()];
        int[] ordinals = new int[names.size()];
        ColumnType[] types = new ColumnType[names.size()];
        for (int i = 0; i < names.size(); i++) {
            ordinals[i] = ordinal(schema, names.get(i));
            StructField field = schema.fields()[ordinals[i]];
            resolved[i] = field.name();
            types[i] = typeOf(field.name(), field.dataType());
        }
        if (Arrays.stream(resolved).distinct().count() != resolved.length) {
            throw new IllegalArgumentException("a layout's key columns must differ: " + names);
        }
        return new KeyColumns(resolved, ordinals, types);
    }

    /** The model's columns in {@code schema}: each present, of the type the model splits on. */
    static KeyColumns forModel(StructType schema, List<Column> columns) {
        KeyColumns key = resolve(schema, columns.stream().map(Column::name).toList());
        for (int i = 0; i < columns.size(); i++) {
            if (key.types[i] != columns.get(i).type()) {
                throw new IllegalArgumentException("column '" + key.names[i] + "' is a "
                        + schema.fields()[key.ordinals[i]].dataType().simpleString() + " (" + key.types[i].jsonName()
                        + ") but the layout model splits it as " + columns.get(i).type().jsonName());
            }
        }
        return key;
    }

    /** The layout type of a Spark type; IllegalArgumentException for a type a layout cannot split on. */
    static ColumnType typeOf(String column, DataType type) {
        if (type instanceof LongType || type instanceof IntegerType || type instanceof ShortType
                || type instanceof ByteType) {
            return ColumnType.LONG;
        }
        if (type instanceof DoubleType || type instanceof FloatType || type instanceof DecimalType) {
            return ColumnType.DOUBLE;
        }
        if (type instanceof TimestampType || type instanceof TimestampNTZType || type instanceof DateType) {
            return ColumnType.TIMESTAMP;
        }
        if (type instanceof StringType) {
            return ColumnType.STRING;
        }
        throw new IllegalArgumentException("column '" + column + "' is a " + type.simpleString()
                + ", which a layout cannot split on (integers, floating point, decimals, dates, timestamps, strings)");
    }

    List<Column> columns() {
        List<Column> out = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            out.add(Column.of(names[i], types[i]));
        }
        return out;
    }

    List<String> names() {
        return List.of(names);
    }

    ColumnType[] types() {
        return types.clone();
    }

    /** The key of a row (external Spark types) in the layout's canonical forms. */
    Object[] key(Row row) {
        Object[] key = new Object[ordinals.length];
        for (int i = 0; i < ordinals.length; i++) {
            key[i] = canonical(types[i], row.isNullAt(ordinals[i]) ? null : row.get(ordinals[i]));
        }
        return key;
    }

    private static Object canonical(ColumnType type, Object v) {
        if (v == null) {
            return null;
        }
        return switch (type) {
            case LONG -> ((Number) v).longValue();
            case DOUBLE -> v instanceof BigDecimal d ? d.doubleValue() : ((Number) v).doubleValue();
            case TIMESTAMP -> micros(v);
            case STRING -> v.toString();
        };
    }

    private static long micros(Object v) {
        if (v instanceof java.sql.Timestamp ts) {
            return micros(ts.toInstant());
        }
        if (v instanceof Instant i) {
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
        }
        if (v instanceof LocalDateTime t) {
            return micros(t.toInstant(ZoneOffset.UTC));
        }
        if (v instanceof java.sql.Date d) {
            return Math.multiplyExact(d.toLocalDate().toEpochDay(), MICROS_PER_DAY);
        }
        if (v instanceof LocalDate d) {
            return Math.multiplyExact(d.toEpochDay(), MICROS_PER_DAY);
        }
        throw new IllegalArgumentException("not a date or timestamp: " + v.getClass().getName());
    }

    private static int ordinal(StructType schema, String name) {
        StructField[] fields = schema.fields();
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name().equals(name)) {
                return i;
            }
        }
        int found = -1;
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name().toLowerCase(Locale.ROOT).equals(String.valueOf(name).toLowerCase(Locale.ROOT))) {
                if (found >= 0) {
                    throw new IllegalArgumentException("column '" + name + "' is ambiguous: "
                            + fields[found].name() + " and " + fields[i].name());
                }
                found = i;
            }
        }
        if (found < 0) {
            throw new IllegalArgumentException("no column '" + name + "' in the DataFrame (its columns: "
                    + String.join(", ", schema.fieldNames()) + ")");
        }
        return found;
    }
}
