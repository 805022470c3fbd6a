package io.stork.spark.layout.history;

import io.stork.layout.model.Range;
import io.stork.skipping.expr.Predicate;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What a query's filter (as data skipping translated and normalized it) constrains, per column: the
 * smallest range that holds every value the filter can accept there. That is all a layout needs from a
 * query: whether its box cuts a node's box on a column. Conjunctions intersect, disjunctions take the hull
 * of columns both sides constrain, and what bounds nothing (NOT EQUAL, NOT IN, IS NULL, unknowns) is left
 * out. Values are brought from skipping's canonical forms to the layout's: dates (days) become their
 * midnight in microseconds, as layouts key dates; decimals become doubles; booleans are left out.
 */
public final class PredicateRanges {

    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private PredicateRanges() {
    }

    /** The per-column ranges of {@code normalized} over a relation of {@code schema}; empty if none. */
    public static Map<String, Range> of(Predicate normalized, StructType schema) {
        Map<String, Range> raw = ranges(normalized);
        Map<String, Range> out = new TreeMap<>();
        raw.forEach((column, range) -> {
            DataType type = typeOf(schema, column);
            if (type != null && (range.lo() != null || range.hi() != null)) {
                Range converted = convert(range, type);
                if (converted != null) {
                    out.put(column, converted);
                }
            }
        });
        return out;
    }

    private static Map<String, Range> ranges(Predicate p) {
        if (p instanceof Predicate.And a) {
            Map<String, Range> left = new HashMap<>(ranges(a.left()));
            ranges(a.right()).forEach((c, r) -> left.merge(c, r, PredicateRanges::intersection));
            return left;
        }
        if (p instanceof Predicate.Or o) {
            Map<String, Range> left = ranges(o.left());
            Map<String, Range> right = ranges(o.right());
            Map<String, Range> both = new HashMap<>();
            left.forEach((c, r) -> {
                Range other = right.get(c);
                if (other != null) {
                    both.put(c, hull(r, other));
                }
            });
            return both;
        }
        if (p instanceof Predicate.Comparison c) {
            return switch (c.op()) {
                case EQ -> Map.of(c.column(), Range.of(c.literal(), c.literal()));
                case LT, LT_EQ -> Map.of(c.column(), Range.of(null, c.literal()));
                case GT, GT_EQ -> Map.of(c.column(), Range.of(c.literal(), null));
                case NOT_EQ -> Map.of();
            };
        }
        if (p instanceof Predicate.In in && !in.negated() && !in.values().isEmpty()) {
            Object min = in.values().get(0);
            Object max = min;
            for (Object v : in.values()) {
                min = compare(v, min) < 0 ? v : min;
                max = compare(v, max) > 0 ? v : max;
            }
            return Map.of(in.column(), Range.of(min, max));
        }
        if (p instanceof Predicate.StartsWith s) {
            // Every string with the prefix sorts between the prefix and the prefix followed by the last char.
            return Map.of(s.column(), Range.of(s.prefix(), s.prefix() + Character.MAX_VALUE));
        }
        if (p instanceof Predicate.GeoBox g) {
            return Map.of(g.latitude(), Range.of(g.minLatitude(), g.maxLatitude()),
                    g.longitude(), Range.of(g.minLongitude(), g.maxLongitude()));
        }
        return Map.of();
    }

    private static Range intersection(Range a, Range b) {
        Object lo = a.lo() == null ? b.lo() : b.lo() == null ? a.lo() : compare(a.lo(), b.lo()) >= 0 ? a.lo() : b.lo();
        Object hi = a.hi() == null ? b.hi() : b.hi() == null ? a.hi() : compare(a.hi(), b.hi()) <= 0 ? a.hi() : b.hi();
        return Range.of(lo, hi);
    }

    private static Range hull(Range a, Range b) {
        Object lo = a.lo() == null || b.lo() == null ? null : compare(a.lo(), b.lo()) <= 0 ? a.lo() : b.lo();
        Object hi = a.hi() == null || b.hi() == null ? null : compare(a.hi(), b.hi()) >= 0 ? a.hi() : b.hi();
        return Range.of(lo, hi);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        return ((Comparable) a).compareTo(b);
    }

    private static DataType typeOf(StructType schema, String column) {
        for (StructField field : schema.fields()) {
            if (field.name().equals(column)) {
                return field.dataType();
            }
        }
        for (StructField field : schema.fields()) {
            if (field.name().equalsIgnoreCase(column)) {
                return field.dataType();
            }
        }
        return null;
    }

    /** One range in the layout's canonical form for a column of {@code type}; null if layouts cannot key it. */
    private static Range convert(Range range, DataType type) {
        if (type.equals(DataTypes.DateType)) {
            return Range.of(days(range.lo()), days(range.hi()));
        }
        if (type instanceof DecimalType || type.equals(DataTypes.FloatType)) {
            return Range.of(asDouble(range.lo()), asDouble(range.hi()));
        }
        if (type.equals(DataTypes.BooleanType) || type.equals(DataTypes.BinaryType)) {
            return null;
        }
        return range;
    }

    private static Object days(Object v) {
        return v == null ? null : ((Number) v).longValue() * MICROS_PER_DAY;
    }

    private static Object asDouble(Object v) {
        if (v == null) {
            return null;
        }
        return v instanceof BigDecimal d ? d.doubleValue() : ((Number) v).doubleValue();
    }

    /** The columns a list of ranges names, for messages. */
    static List<String> columns(Map<String, Range> ranges) {
        return List.copyOf(ranges.keySet());
    }
}
