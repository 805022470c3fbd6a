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
    private final List<GeoPair> geo;
    private long rows;

    /** A geo index over two collected columns (positions in {@link #columns}), kept on the latitude's. */
    record GeoPair(int latitude, int longitude, GeoCollector collector) {
    }

    PartStatisticsCollector(List<String> names, List<ColumnCollector> columns, List<GeoPair> geo) {
        this.names = List.copyOf(names);
        this.columns = List.copyOf(columns);
        this.geo = List.copyOf(geo);
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
        for (GeoPair pair : geo) {
            pair.collector().add(columns.get(pair.latitude()).last(), columns.get(pair.longitude()).last());
        }
    }

    public PartStatistics finish() {
        Map<String, ColumnStatistics> stats = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            Map<String, io.stork.skipping.spi.ColumnIndex> more = new LinkedHashMap<>();
            for (GeoPair pair : geo) {
                if (pair.latitude() == i) {
                    io.stork.skipping.spi.ColumnIndex boxes = pair.collector().finish();
                    if (boxes != null) {
                        more.put(boxes.type(), boxes);
                    }
                }
            }
            stats.put(names.get(i), columns.get(i).finish(more));
        }
        return new PartStatistics(rows, stats);
    }
}
