package io.stork.store.cache;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a block cache did: blocks served from it (hits) and read from the store instead (misses), reads
 * whose cached version a conditional GET confirmed (revalidated), bytes each way, blocks stored, evicted, found damaged, and dropped because the disk fell behind. Thread-safe; a snapshot is a few reads.
 */
public final class BlockCacheStatistics {

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder revalidated = new LongAdder();
    private final LongAdder bytesFromCache = new LongAdder();
    private final LongAdder bytesFromStore = new LongAdder();
    private final LongAdder stored = new LongAdder();
    private final LongAdder bytesStored = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder damaged = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final CacheReadListener listener;

    public BlockCacheStatistics() {
        this(CacheReadListener.NONE);
    }

    /** @param listener told of bytes served and fetched, on the reading thread */
    public BlockCacheStatistics(CacheReadListener listener) {
        this.listener = listener;
    }

    /** The counters at one moment. */
    public record Snapshot(long hits, long misses, long revalidated, long bytesFromCache, long bytesFromStore,
                           long blocksStored, long bytesStored, long evictions, long damaged, long dropped) {

        public Snapshot minus(Snapshot before) {
            return new Snapshot(hits - before.hits, misses - before.misses, revalidated - before.revalidated,
                    bytesFromCache - before.bytesFromCache, bytesFromStore - before.bytesFromStore,
                    blocksStored - before.blocksStored,
                    bytesStored - before.bytesStored, evictions - before.evictions, damaged - before.damaged,
                    dropped - before.dropped);
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(hits.sum(), misses.sum(), revalidated.sum(), bytesFromCache.sum(), bytesFromStore.sum(),
                stored.sum(), bytesStored.sum(), evictions.sum(), damaged.sum(), dropped.sum());
    }

    void hit() {
        hits.increment();
    }

    void served(long bytes) {
        bytesFromCache.add(bytes);
        listener.servedFromCache(bytes);
    }

    void miss() {
        misses.increment();
    }

    /** A read that named no version found the cached one current (one conditional GET, no body). */
    void revalidated() {
        revalidated.increment();
    }

    void fromStore(long bytes) {
        bytesFromStore.add(bytes);
        listener.fetchedFromStore(bytes);
    }

    void stored(long bytes) {
        stored.increment();
        bytesStored.add(bytes);
    }

    void evicted() {
        evictions.increment();
    }

    void damaged() {
        damaged.increment();
    }

    /** A block not kept because the disk fell behind the reads. */
    void dropped() {
        dropped.increment();
    }
}
