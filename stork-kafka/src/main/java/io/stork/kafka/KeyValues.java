package io.stork.kafka;

import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;

/**
 * Brings one key value read from a record to the form its model column compares in, so that a record is
 * routed exactly as the Spark writer routes the same row: long, double, timestamp (microseconds since the
 * epoch, UTC) or string. Every failure is an {@link IllegalArgumentException} of one line naming the column.
 */
final class KeyValues {

    private KeyValues() {
    }

    /**
     * A key value from text (a CSV field, a JSON string, a String in a Map). long: a decimal integer;
     * double: a decimal or scientific number, NaN, Infinity; timestamp: an integer (microseconds since the
     * epoch), an ISO-8601 instant or date-time with offset or zone, or a local date-time or date (read as
     * UTC, as Spark's timestamp_ntz and date are laid out); string: the text as it is.
     */
    static Object parse(Column column, String text) {
        ColumnType type = column.type();
        if (type == ColumnType.STRING) {
            return text;
        }
        String s = text.strip();
        try {
            return switch (type) {
                case LONG -> Long.parseLong(s);
                case DOUBLE -> column.type().canonical(column.name(), Double.parseDouble(s));
                case TIMESTAMP -> timestampMicros(s);
                case STRING -> throw new AssertionError();
            };
        } catch (NumberFormatException | DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException(describe(column) + ": not " + expected(type) + ": '" + abbreviate(text)
                    + "'");
        }
    }

    /**
     * A key value handed over as a Java object (the {@code object} format): text is parsed as above, numbers
     * and java.time values are converted when nothing is lost, anything else fails.
     */
    static Object of(Column column, Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String s) {
            return parse(column, s);
        }
        Object v = value;
        switch (column.type()) {
            case LONG -> {
                if (v instanceof BigInteger b) {
                    v = exact(column, b);
                }
            }
            case DOUBLE -> {
                if (v instanceof Number n && !(v instanceof Double)) {
                    v = n.doubleValue();
                }
            }
            case TIMESTAMP -> {
                if (v instanceof TemporalAccessor t && !(v instanceof Instant)) {
                    v = micros(column, t);
                } else if (v instanceof Integer i) {
                    v = i.longValue();
                }
            }
            case STRING -> {
                // Only text: a number's rendering is not something the writer would have stored.
            }
        }
        if (v instanceof BigDecimal) {
            throw new IllegalArgumentException(describe(column) + ": cannot hold a BigDecimal (" + value + ")");
        }
        try {
            return column.type().canonical(column.name(), v);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(describe(column) + ": out of range: " + value);
        }
    }

    static String describe(Column column) {
        return "column '" + column.name() + "' (" + column.type().jsonName() + ")";
    }

    static String expected(ColumnType type) {
        return switch (type) {
            case LONG -> "an integer";
            case DOUBLE -> "a number";
            case TIMESTAMP -> "a timestamp (epoch microseconds, or ISO-8601 date-time or date)";
            case STRING -> "a string";
        };
    }

    /** Record values can be long or hold personal data: errors show at most 40 characters of one. */
    static String abbreviate(String text) {
        String oneLine = text.replaceAll("[\\r\\n]+", " ");
        return oneLine.length() <= 40 ? oneLine : oneLine.substring(0, 40) + "...";
    }

    private static long timestampMicros(String s) {
        if (isInteger(s)) {
            return Long.parseLong(s);
        }
        // "2026-01-01 10:00:00" (SQL style) as well as the ISO 'T'.
        String iso = s.length() > 10 && s.charAt(10) == ' ' ? s.substring(0, 10) + 'T' + s.substring(11) : s;
        TemporalAccessor t = iso.length() == 10 ? LocalDate.parse(iso)
                : DateTimeFormatter.ISO_DATE_TIME.parseBest(iso, ZonedDateTime::from, LocalDateTime::from);
        return toMicros(t);
    }

    private static long micros(Column column, TemporalAccessor t) {
        try {
            return toMicros(t);
        } catch (DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException(describe(column) + ": not a timestamp: " + t);
        }
    }

    private static long toMicros(TemporalAccessor t) {
        Instant i;
        if (t instanceof ZonedDateTime z) {
            i = z.toInstant();
        } else if (t instanceof OffsetDateTime o) {
            i = o.toInstant();
        } else if (t instanceof LocalDateTime l) {
            i = l.toInstant(ZoneOffset.UTC);
        } else if (t instanceof LocalDate d) {
            i = d.atStartOfDay().toInstant(ZoneOffset.UTC);
        } else {
            i = Instant.from(t);
        }
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    }

    private static Long exact(Column column, BigInteger b) {
        try {
            return b.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(describe(column) + ": out of range: " + b);
        }
    }

    private static boolean isInteger(String s) {
        int start = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
        if (s.length() == start) {
            return false;
        }
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
