package io.stork.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.NoSuchElementException;

/**
 * An iterator whose advance may call the store, hence the checked {@link IOException} (the shape of
 * Hadoop's {@code RemoteIterator}). If {@link #hasNext()} fails, calling it again retries the same page.
 */
public interface StoreIterator<T> extends Closeable {

    boolean hasNext() throws IOException;

    /** @throws NoSuchElementException at the end */
    T next() throws IOException;

    @Override
    default void close() {
    }
}
