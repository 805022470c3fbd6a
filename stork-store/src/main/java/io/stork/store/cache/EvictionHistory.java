package io.stork.store.cache;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The names of the blocks evicted last (names only, no bytes), as 2Q and ARC keep them: a block fetched
 * again soon after its eviction has shown it is reused, so it comes back as used twice and a segmented
 * policy protects it. Without this, blocks a query comes back to after a scan larger than the cache would
 * always be evicted before their second use. Bounded: the oldest names are forgotten first.
 */
public final class EvictionHistory<K> {

    /** Names kept, as a share of the blocks the cache holds: chosen by measurement (docs/benchmarks/cache-eviction.md). */
    public static final int PERCENT_OF_CACHE = 25;

    private final Map<K, Boolean> names;

    /** @param capacity names kept ({@link #PERCENT_OF_CACHE} of the blocks the cache holds) */
    public EvictionHistory(int capacity) {
        this.names = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    public synchronized void evicted(K key) {
        names.remove(key);
        names.put(key, Boolean.TRUE);
    }

    /** Whether {@code key} was evicted lately; it is forgotten either way (it is cached again now). */
    public synchronized boolean recall(K key) {
        return names.remove(key) != null;
    }
}
