package io.stork.store.cache;

/**
 * Told of each read's bytes served from the block cache or fetched from the store, on the thread that
 * reads them: so that a layer above can account them per thread (the file system counts them in Hadoop's
 * per-thread file system statistics, from which a Spark task learns its own share of a cache its executor's
 * tasks share). Must be cheap and must not throw.
 */
public interface CacheReadListener {

    /** Counts nothing. */
    CacheReadListener NONE = new CacheReadListener() {
        @Override
        public void servedFromCache(long bytes) {
        }

        @Override
        public void fetchedFromStore(long bytes) {
        }
    };

    void servedFromCache(long bytes);

    void fetchedFromStore(long bytes);
}
