package io.stork.skipping;

import io.stork.skipping.spi.ColumnIndex;
import java.util.Map;
import java.util.Objects;

/**
 * What one part holds in one column.
 *
 * @param type         the column's value kind
 * @param nullCount    rows whose value is null
 * @param nanCount     rows whose value is NaN (doubles only; NaN takes no part in min and max)
 * @param min          the least non-null, non-NaN value, or null when there is none; for strings a prefix of
 *                     it (a prefix is never greater, so it stays a lower bound)
 * @param max          the greatest such value, or null; for strings possibly cut to a prefix, see {@code maxIsPrefix}
 * @param maxIsPrefix  {@code max} is a prefix of the true maximum: every value is at most some string that
 *                     starts with it
 * @param indexes      further indexes by type name ({@code values}, {@code bloom}, plug-ins)
 */
public record ColumnStatistics(ColumnType type, long nullCount, long nanCount, Object min, Object max,
                               boolean maxIsPrefix, Map<String, ColumnIndex> indexes) {

    public ColumnStatistics {
        Objects.requireNonNull(type, "type");
        if ((min == null) != (max == null)) {
            throw new IllegalArgumentException("min and max are both present or both absent");
        }
        if (min != null && (!type.javaType().isInstance(min) || !type.javaType().isInstance(max))) {
            throw new IllegalArgumentException("bounds of a " + type.jsonName() + " column must be "
                    + type.javaType().getSimpleName());
        }
        if (nullCount < 0 || nanCount < 0) {
            throw new IllegalArgumentException("negative count");
        }
        indexes = Map.copyOf(indexes);
    }

    public boolean hasBounds() {
        return min != null;
    }
}
