package io.stork.skipping;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Comparisons of canonical values in Spark's order, and the string prefixes bounds are cut to. */
public final class Values {

    private Values() {
    }

    /**
     * Compares two non-null canonical values of {@code type} as Spark orders them: doubles with -0.0 equal
     * to 0.0 and NaN above everything, strings by their UTF-8 bytes (not by Java's UTF-16 order).
     */
    public static int compare(ColumnType type, Object a, Object b) {
        return switch (type) {
            case LONG -> Long.compare((Long) a, (Long) b);
            case DOUBLE -> compareDoubles((Double) a, (Double) b);
            case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
            case STRING -> compareUtf8((String) a, (String) b);
            case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
        };
    }

    static int compareDoubles(double a, double b) {
        if (a == b) {
            return 0; // also -0.0 against 0.0
        }
        return Double.compare(a, b); // NaN greatest, NaN equal to NaN
    }

    public static int compareUtf8(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** The first {@code codePoints} code points of {@code s} (never splitting a surrogate pair). */
    public static String prefix(String s, int codePoints) {
        if (s.codePointCount(0, s.length()) <= codePoints) {
            return s;
        }
        return s.substring(0, s.offsetByCodePoints(0, codePoints));
    }

    /** Whether {@code value} is NaN (only doubles can be). */
    public static boolean isNaN(Object value) {
        return value instanceof Double d && d.isNaN();
    }

    /** The canonical form of a value: -0.0 as 0.0, decimals without trailing zeros (so 1.0 and 1.00 are one value). */
    public static Object canonical(Object value) {
        if (value instanceof Double d && d == 0.0d) {
            return 0.0d;
        }
        if (value instanceof BigDecimal big) {
            return big.signum() == 0 ? BigDecimal.ZERO : big.stripTrailingZeros();
        }
        return value;
    }
}
