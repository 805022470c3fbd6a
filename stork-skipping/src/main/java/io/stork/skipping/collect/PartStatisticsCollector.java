package io.stork.skipping.collect;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.PartStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Statistics of one part, gathered row by row while the part is written: the writer calls
 * {@link #column(int)}{@code .add(value)} for each indexed column and {@link #rowDone()} once per row.
 */
public final class PartStatisticsCollector {

    private final List<String> names;
    private final List<ColumnCollector> columns;
    private long rows;

    PartStatisticsCollector(List<String> names, List<ColumnCollector> columns) {
        this.names = List.copyOf(names);
        this.columns = List.copyOf(columns);
    }

    /** The i-th indexed column, in the order of {@link SkippingSpec#columns()}. */
    public ColumnCollector column(int i) {
        return columns.get(i);
    }

    public int columnCount() {
        return columns.size();
    }

    public void rowDone() {
        rows++;
    }

    public PartStatistics finish() {
        Map<String, ColumnStatistics> stats = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            stats.put(names.get(i), columns.get(i).finish());
        }
        return new PartStatistics(rows, stats);
    }
}
