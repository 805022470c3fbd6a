package io.stork.skipping.expr;

import java.util.List;
import java.util.Objects;

/**
 * A query's filter as far as skipping understands it. Literals are canonical values of the column's
 * {@link io.stork.skipping.ColumnType}; a comparison's column is on the left. What cannot be translated
 * safely becomes {@link Unknown}, which rules nothing out. A row matches when the predicate is TRUE (SQL's
 * three-valued logic: a null operand makes a comparison unknown, and an unknown row is not returned).
 */
public sealed interface Predicate {

    enum Op {
        EQ, NOT_EQ, LT, LT_EQ, GT, GT_EQ;

        /** The operator of {@code NOT (c op v)} for a non-null c (SQL: the negation of a comparison). */
        public Op negate() {
            return switch (this) {
                case EQ -> NOT_EQ;
                case NOT_EQ -> EQ;
                case LT -> GT_EQ;
                case LT_EQ -> GT;
                case GT -> LT_EQ;
                case GT_EQ -> LT;
            };
        }
    }

    /** {@code column op literal}; the literal is never null (a comparison with null is never TRUE). */
    record Comparison(String column, Op op, Object literal) implements Predicate {
        public Comparison {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(literal, "literal");
        }
    }

    /** {@code column IN (values)} (non-null values), or {@code NOT IN} when {@code negated}. */
    record In(String column, List<Object> values, boolean negated) implements Predicate {
        public In {
            Objects.requireNonNull(column, "column");
            values = List.copyOf(values);
        }
    }

    record IsNull(String column) implements Predicate {
    }

    record IsNotNull(String column) implements Predicate {
    }

    /** {@code column LIKE 'prefix%'}, {@code startswith(column, prefix)}. */
    record StartsWith(String column, String prefix) implements Predicate {
        public StartsWith {
            Objects.requireNonNull(prefix, "prefix");
        }
    }

    /**
     * A latitude/longitude pair inside a box (bounds inclusive): the geo index answers it from its boxes;
     * without one, it is the two ranges it implies.
     */
    record GeoBox(String latitude, String longitude, double minLatitude, double maxLatitude,
                  double minLongitude, double maxLongitude) implements Predicate {
    }

    record And(Predicate left, Predicate right) implements Predicate {
    }

    record Or(Predicate left, Predicate right) implements Predicate {
    }

    record Not(Predicate child) implements Predicate {
    }

    /** Anything skipping does not understand: may match. */
    record Unknown(String description) implements Predicate {
        public static final Unknown INSTANCE = new Unknown("untranslated");
    }

    static Predicate and(Predicate left, Predicate right) {
        return new And(left, right);
    }

    static Predicate or(Predicate left, Predicate right) {
        return new Or(left, right);
    }

    static Predicate not(Predicate child) {
        return new Not(child);
    }
}
