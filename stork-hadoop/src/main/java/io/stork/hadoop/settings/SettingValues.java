package io.stork.hadoop.settings;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.util.StringUtils;

/**
 * How every Stork setting's text becomes a value: durations, counts, sizes and switches, each failing
 * with one line that names the key and the value. Hadoop's own getters would either ignore a bad value
 * (booleans fall back to the default) or fail with "For input string", naming nothing.
 */
public final class SettingValues {

    /**
     * Hadoop's time units (as {@code Configuration.getTimeDuration}), but a unit is required: Hadoop reads
     * a bare number in each caller's own unit, and a retention of "7" once meant 7 milliseconds to one
     * reader and 7 minutes to another.
     */
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)");

    private SettingValues() {
    }

    /** {@code 100ms}, {@code 10s}, {@code 5m}, {@code 24h}, {@code 7d} (also {@code ns}, {@code us}); a unit is required. */
    public static Duration duration(String key, String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw invalid(key, text, "a duration with a unit (100ms, 10s, 5m, 24h, 7d)");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw invalid(key, text, "a duration within range");
        }
        return switch (m.group(2)) {
            case "ns" -> Duration.ofNanos(n);
            case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1000L));
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** A whole number of at least {@code min}. */
    public static int integer(String key, String text, int min) {
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw invalid(key, text, "a whole number");
        }
        if (value < min) {
            throw invalid(key, text, "a whole number of at least " + min);
        }
        return value;
    }

    /** A size in bytes, with an optional binary suffix ({@code 32M}, {@code 10g}, {@code 16K}). */
    public static long bytes(String key, String text) {
        long value;
        try {
            value = StringUtils.TraditionalBinaryPrefix.string2long(text.trim());
        } catch (IllegalArgumentException e) {
            throw invalid(key, text, "a size (bytes, or a number and a suffix: 16K, 32M, 10G)");
        }
        if (value < 0) {
            throw invalid(key, text, "a size of at least 0");
        }
        return value;
    }

    /** {@code true} or {@code false} (any case); anything else is refused rather than read as false. */
    public static boolean bool(String key, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true") || t.equals("false")) {
            return t.equals("true");
        }
        throw invalid(key, text, "true or false");
    }

    private static IllegalArgumentException invalid(String key, String text, String expected) {
        return new InvalidSettingException(key + ": '" + text + "' is not " + expected);
    }

    /** A setting whose value cannot be read: its message is one line naming the key. */
    public static final class InvalidSettingException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidSettingException(String message) {
            super(message);
        }
    }
}
