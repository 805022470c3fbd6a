package io.stork.spark.skipping;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Statistics must describe the values a reader will get back, not the rows handed to the writer: text
 * formats change some values on the way (CSV trims strings and writes timestamps to the millisecond, a
 * newline inside a text or CSV value splits it into two records). For each column this says how a
 * written value reads back ({@link #readBack}), or that it cannot be known ({@link #covered} false: no
 * statistics for that column), or that a value cannot be described at all ({@link Unrepresentable}: no
 * statistics for that file). Formats not known here get no statistics. Statistics assume the data is
 * read with the options it was written with (docs/data-skipping.md).
 */
final class WriteEncoding implements Serializable {

    /** A value no statistics can describe: the file gets none. */
    static final class Unrepresentable extends RuntimeException {
        Unrepresentable(String why) {
            super(why, null, false, false);
        }
    }

    private enum Format { BINARY, CSV, JSON, TEXT }

    private final Format format;
    private final boolean parquetMillis;
    private final Map<String, String> options;

    private WriteEncoding(Format format, boolean parquetMillis, Map<String, String> options) {
        this.format = format;
        this.parquetMillis = parquetMillis;
        this.options = options;
    }

    /**
     * For a write in {@code shortName} format ({@code DataSourceRegister.shortName()}), or null when no
     * statistics can be promised for it. {@code options}: the write's options, keys lower case.
     */
    static WriteEncoding of(String shortName, Map<String, String> options, String parquetTimestampType) {
        String name = shortName == null ? "" : shortName.toLowerCase(Locale.ROOT);
        return switch (name) {
            case "parquet" -> new WriteEncoding(Format.BINARY, "TIMESTAMP_MILLIS".equalsIgnoreCase(
                    options.getOrDefault("outputtimestamptype", parquetTimestampType)), options);
            case "orc", "avro" -> new WriteEncoding(Format.BINARY, false, options);
            case "csv" -> new WriteEncoding(Format.CSV, false, options);
            case "json" -> new WriteEncoding(Format.JSON, false, options);
            case "text" -> new WriteEncoding(Format.TEXT, false, options);
            default -> null;
        };
    }

    /** Whether a column of this type can have statistics under this format's options. */
    boolean covered(DataType type) {
        if (format == Format.CSV || format == Format.JSON) {
            if (type instanceof TimestampType) {
                return !options.containsKey("timestampformat");
            }
            if (type instanceof TimestampNTZType) {
                return !options.containsKey("timestampntzformat");
            }
            if (type instanceof DateType) {
                return !options.containsKey("dateformat");
            }
        }
        return true;
    }

    /** The canonical value a reader gets back for {@code value} (canonical, non-null) written in a column of {@code type}. */
    Object readBack(Object value, DataType type) {
        boolean timestamp = type instanceof TimestampType || type instanceof TimestampNTZType;
        if (timestamp && (parquetMillis || format == Format.CSV || format == Format.JSON)) {
            return Math.floorDiv((Long) value, 1000L) * 1000L; // written to the millisecond
        }
        if (type instanceof StringType) {
            String s = (String) value;
            if (format == Format.TEXT || format == Format.CSV) {
                if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                    throw new Unrepresentable("a value with a line break reads back as more than one record");
                }
            }
            if (format == Format.CSV) {
                return csvString(s);
            }
        }
        return value;
    }

    /** CSV's writer trims characters up to ' ' unless told not to; a value equal to nullValue reads back as null. */
    private Object csvString(String s) {
        int start = 0;
        int end = s.length();
        if (!"false".equalsIgnoreCase(options.getOrDefault("ignoreleadingwhitespace", "true").trim())) {
            while (start < end && s.charAt(start) <= ' ') {
                start++;
            }
        }
        if (!"false".equalsIgnoreCase(options.getOrDefault("ignoretrailingwhitespace", "true").trim())) {
            while (end > start && s.charAt(end - 1) <= ' ') {
                end--;
            }
        }
        String written = s.substring(start, end);
        String nullValue = options.getOrDefault("nullvalue", "");
        return !nullValue.isEmpty() && written.equals(nullValue) ? null : written;
    }
}
