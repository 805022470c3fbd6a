package io.stork.skipping.collect;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.ColumnType;
import io.stork.skipping.Values;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexCollector;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Min/max, null and NaN counts of one column of the part being written, and the further indexes asked
 * for. Memory: two values, a string bound held at most {@code stringPrefix} code points long once a part
 * is done, and what the index collectors keep (bounded by their own caps).
 */
public final class ColumnCollector {

    private final ColumnType type;
    private final int stringPrefix;
    private final Map<String, IndexCollector> indexes;
    private long nulls;
    private long nans;
    private Object min;
    private Object max;
    private Object last;

    ColumnCollector(ColumnType type, int stringPrefix, Map<String, IndexCollector> indexes) {
        this.type = type;
        this.stringPrefix = stringPrefix;
        this.indexes = indexes;
    }

    /** One row's value: canonical of the column's type, or null. */
    public void add(Object value) {
        last = value;
        if (value == null) {
            nulls++;
        } else if (Values.isNaN(value)) {
            nans++;
        } else {
            Object v = Values.canonical(value);
            if (min == null || Values.compare(type, v, min) < 0) {
                min = type == ColumnType.STRING ? Values.prefix((String) v, stringPrefix) : v;
            }
            if (max == null || Values.compare(type, v, max) > 0) {
                max = v; // cut when the part is done: a cut bound could not be compared with later values
            }
        }
        for (IndexCollector index : indexes.values()) {
            index.add(value);
        }
    }

    /** The value of the current row (for indexes over two columns, fed when the row is done). */
    Object last() {
        return last;
    }

    public ColumnType type() {
        return type;
    }

    ColumnStatistics finish() {
        return finish(Map.of());
    }

    /** The column's statistics, with {@code more} indexes gathered elsewhere (over two columns). */
    ColumnStatistics finish(Map<String, ColumnIndex> more) {
        Map<String, ColumnIndex> built = new LinkedHashMap<>(more);
        for (Map.Entry<String, IndexCollector> e : indexes.entrySet()) {
            ColumnIndex index = e.getValue().finish();
            if (index != null) {
                built.put(index.type(), index);
            }
        }
        Object upper = max;
        boolean cut = false;
        if (type == ColumnType.STRING && max != null) {
            upper = Values.prefix((String) max, stringPrefix);
            cut = !upper.equals(max);
        }
        return new ColumnStatistics(type, nulls, nans, min, upper, cut, built);
    }
}
