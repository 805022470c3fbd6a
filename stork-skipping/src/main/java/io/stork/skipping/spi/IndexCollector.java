package io.stork.skipping.spi;

/**
 * Gathers one index for one column while a part is written: offered every value (canonical, or null), in
 * row order. Must keep its memory bounded whatever the number of rows.
 */
public interface IndexCollector {

    void add(Object value);

    /** The index for the rows offered, or null when it has nothing worth keeping (e.g. past a cap). */
    ColumnIndex finish();
}
