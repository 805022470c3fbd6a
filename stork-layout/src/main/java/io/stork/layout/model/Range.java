package io.stork.layout.model;

/**
 * A closed range [lo, hi] of canonical values of one column (see {@link ColumnType}); a null end is open
 * (unbounded). Used both for a query's constraint on a column and for one side of a box.
 */
public record Range(Object lo, Object hi) {

    public static final Range ALL = new Range(null, null);

    public static Range of(Object lo, Object hi) {
        return new Range(lo, hi);
    }

    public boolean contains(ColumnType type, Object v) {
        return v != null && (lo == null || type.compare(lo, v) <= 0) && (hi == null || type.compare(v, hi) <= 0);
    }

    /** Whether the two ranges share a value; both closed at finite ends. */
    public boolean intersects(ColumnType type, Range other) {
        return (lo == null || other.hi == null || type.compare(lo, other.hi) <= 0)
                && (other.lo == null || hi == null || type.compare(other.lo, hi) <= 0);
    }

    /** Whether every value of {@code other} is in this range. */
    public boolean encloses(ColumnType type, Range other) {
        return (lo == null || (other.lo != null && type.compare(lo, other.lo) <= 0))
                && (hi == null || (other.hi != null && type.compare(other.hi, hi) <= 0));
    }

    /**
     * Whether this (query) range cuts {@code box}: it takes part of the box's values but not all of them,
     * so a split on this column could separate what the query reads from what it does not.
     */
    public boolean cuts(ColumnType type, Range box) {
        return intersects(type, box) && !encloses(type, box);
    }

    /** This range with both ends in canonical form for {@code column}. */
    public Range canonical(Column column) {
        Object l = column.type().canonical(column.name(), lo);
        Object h = column.type().canonical(column.name(), hi);
        if (l != null && h != null && column.type().compare(l, h) > 0) {
            throw new IllegalArgumentException("empty range on '" + column.name() + "': " + l + " > " + h);
        }
        return new Range(l, h);
    }

    @Override
    public String toString() {
        return "[" + (lo == null ? "-inf" : lo) + ", " + (hi == null ? "+inf" : hi) + "]";
    }
}
