package io.stork.skipping;

import java.util.Map;
import java.util.Optional;

/**
 * Statistics of one part (object): its row count and, per indexed column, {@link ColumnStatistics}. A
 * column without statistics rules nothing out. Names are matched without regard to case, as Spark resolves
 * them by default.
 */
public record PartStatistics(long rows, Map<String, ColumnStatistics> columns) {

    public PartStatistics {
        if (rows < 0) {
            throw new IllegalArgumentException("negative row count");
        }
        java.util.TreeMap<String, ColumnStatistics> byName = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        byName.putAll(columns);
        columns = java.util.Collections.unmodifiableMap(byName);
    }

    public Optional<ColumnStatistics> column(String name) {
        return Optional.ofNullable(columns.get(name));
    }
}
