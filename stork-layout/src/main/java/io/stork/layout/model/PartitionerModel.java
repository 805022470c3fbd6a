package io.stork.layout.model;

import java.util.List;

/**
 * A layout: maps a row's key (the values of {@link #columns()}, in order) to a bucket in
 * [0, {@link #buckets()}). Stateless and immutable, so every writer task routes with the same copy it read
 * from the store, and the same key always lands in the same bucket.
 */
public interface PartitionerModel {

    /** "grid" or "kdtree": the JSON form's discriminator. */
    String kind();

    List<Column> columns();

    int buckets();

    /** The bucket of a key; values in any Java form their column's type accepts (see {@link ColumnType}). */
    int bucketOf(Object[] key);

    /** The history this model was built from ({@link HistorySummary#NONE} without one). */
    HistorySummary history();

    /**
     * The key columns in the order rows are best sorted by within a bucket: by default the key's own
     * order. A model that knows its buckets better (a k-d tree) puts first the columns with the fewest
     * values per bucket, so a sorted object holds long runs of equal values (far smaller encoded).
     */
    default List<Column> sortColumns() {
        return columns();
    }

    /** Checks a key's arity and brings its values to canonical form, with one-line errors. */
    static Object[] canonicalKey(List<Column> columns, Object[] key) {
        if (key == null || key.length != columns.size()) {
            throw new IllegalArgumentException("a key of " + columns.size() + " values "
                    + columns.stream().map(Column::name).toList() + " was expected, not "
                    + (key == null ? "null" : key.length));
        }
        Object[] c = new Object[key.length];
        for (int i = 0; i < key.length; i++) {
            c[i] = columns.get(i).type().canonical(columns.get(i).name(), key[i]);
        }
        return c;
    }
}
