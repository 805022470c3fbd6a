package io.stork.layout.model;

import java.util.List;

/**
 * A hyper-rectangle over a layout's columns: one {@link Range} per column, in the columns' order. Leaf
 * boxes of a k-d tree are the min/max of the rows a bucket was built from; grid cells are boxes over
 * (lat, lon).
 */
public record Box(List<Range> ranges) {

    public Box {
        ranges = List.copyOf(ranges);
    }

    public static Box of(Range... ranges) {
        return new Box(List.of(ranges));
    }

    public Range range(int dim) {
        return ranges.get(dim);
    }

    public int dimensions() {
        return ranges.size();
    }

    public boolean contains(List<Column> columns, Object[] key) {
        for (int d = 0; d < ranges.size(); d++) {
            if (!ranges.get(d).contains(columns.get(d).type(), key[d])) {
                return false;
            }
        }
        return true;
    }

    public boolean intersects(List<Column> columns, Box other) {
        for (int d = 0; d < ranges.size(); d++) {
            if (!ranges.get(d).intersects(columns.get(d).type(), other.range(d))) {
                return false;
            }
        }
        return true;
    }
}
