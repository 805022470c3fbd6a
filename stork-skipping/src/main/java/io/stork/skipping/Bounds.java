package io.stork.skipping;

import io.stork.skipping.expr.Predicate.Op;
import java.util.List;

/**
 * Min/max reasoning for one column. A string maximum may be a prefix P of the true maximum, which then
 * lies in [P, P⁺) (P⁺: the least string above every string starting with P); a value v is below P⁺ exactly
 * when v ≤ P or v starts with P.
 */
final class Bounds {

    private Bounds() {
    }

    /** May some non-null value x of the column make {@code x op v} TRUE? ({@code v} canonical, of the column's type.) */
    static boolean comparison(Op op, Object v, ColumnStatistics c) {
        ColumnType type = c.type();
        if (type == ColumnType.DOUBLE) {
            boolean nan = c.nanCount() > 0;
            if (Values.isNaN(v)) {
                // NaN is Spark's greatest double and equals itself.
                return switch (op) {
                    case EQ, GT_EQ -> nan;
                    case GT -> false;
                    case LT, NOT_EQ -> c.hasBounds();
                    case LT_EQ -> true;
                };
            }
            if (nan && (op == Op.GT || op == Op.GT_EQ || op == Op.NOT_EQ)) {
                return true;
            }
        }
        if (!c.hasBounds()) {
            return type != ColumnType.DOUBLE; // a double column without bounds holds only NaN (and nulls)
        }
        Object min = c.min();
        Object max = c.max();
        return switch (op) {
            case EQ -> Values.compare(type, v, min) >= 0 && atMostMax(v, c);
            case LT -> Values.compare(type, min, v) < 0;
            case LT_EQ -> Values.compare(type, min, v) <= 0;
            case GT -> someAbove(v, c, true);
            case GT_EQ -> someAbove(v, c, false);
            case NOT_EQ -> !allEqual(v, c);
        };
    }

    /** May some non-null value lie outside {@code values} (NOT IN)? */
    static boolean notIn(List<Object> values, ColumnStatistics c) {
        if (c.nanCount() > 0 || !c.hasBounds()) {
            return true;
        }
        for (Object v : values) {
            if (allEqual(Values.canonical(v), c)) {
                return false;
            }
        }
        return true;
    }

    /** May some value start with {@code prefix}? */
    static boolean startsWith(String prefix, ColumnStatistics c) {
        if (!c.hasBounds()) {
            return true;
        }
        String min = (String) c.min();
        String max = (String) c.max();
        boolean allBelow = c.maxIsPrefix()
                ? Values.compareUtf8(max, prefix) < 0 && !prefix.startsWith(max)
                : Values.compareUtf8(max, prefix) < 0;
        boolean allAbove = Values.compareUtf8(min, prefix) > 0 && !min.startsWith(prefix);
        return !allBelow && !allAbove;
    }

    private static boolean allEqual(Object v, ColumnStatistics c) {
        return !c.maxIsPrefix() && c.nanCount() == 0 && Values.compare(c.type(), c.min(), c.max()) == 0
                && Values.compare(c.type(), c.min(), v) == 0;
    }

    private static boolean atMostMax(Object v, ColumnStatistics c) {
        if (Values.compare(c.type(), v, c.max()) <= 0) {
            return true;
        }
        return c.maxIsPrefix() && ((String) v).startsWith((String) c.max());
    }

    private static boolean someAbove(Object v, ColumnStatistics c, boolean strict) {
        int cmp = Values.compare(c.type(), c.max(), v);
        if (strict ? cmp > 0 : cmp >= 0) {
            return true;
        }
        return c.maxIsPrefix() && ((String) v).startsWith((String) c.max());
    }
}
