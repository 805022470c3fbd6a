package io.stork.hadoop;

import io.stork.store.cache.BlockCacheStatistics;
import io.stork.store.cache.CachingObjectStore;

import io.stork.store.CallType;
import io.stork.store.StoreStatistics;
import java.util.Locale;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.impl.DynamicIOStatisticsBuilder;

/**
 * The store client's REST-call counters as Hadoop {@link IOStatistics}: live counters
 * {@code stork_<type>_calls} and {@code stork_<type>_failures} per call type, and
 * {@code stork_bytes_sent}/{@code stork_bytes_received}, read from the client's statistics when asked;
 * with the block cache on, its counters {@code stork_cache_*} (hits, misses, bytes served and fetched,
 * blocks stored, evictions, damaged files dropped).
 */
final class StoreIOStatistics {

    private StoreIOStatistics() {
    }

    static IOStatistics of(io.stork.store.ObjectStore store) {
        StoreStatistics statistics = store.statistics();
        DynamicIOStatisticsBuilder builder = org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.dynamicIOStatistics();
        for (CallType type : CallType.values()) {
            String name = type.name().toLowerCase(Locale.ROOT);
            builder.withLongFunctionCounter("stork_" + name + "_calls", k -> statistics.snapshot().calls(type));
            builder.withLongFunctionCounter("stork_" + name + "_failures",
                    k -> statistics.snapshot().failures().getOrDefault(type, 0L));
        }
        builder.withLongFunctionCounter("stork_bytes_sent", k -> statistics.snapshot().totalBytesSent());
        builder.withLongFunctionCounter("stork_bytes_received", k -> statistics.snapshot().totalBytesReceived());
        if (store instanceof CachingObjectStore caching) {
            BlockCacheStatistics cache = caching.cacheStatistics();
            builder.withLongFunctionCounter("stork_cache_hits", k -> cache.snapshot().hits());
            builder.withLongFunctionCounter("stork_cache_misses", k -> cache.snapshot().misses());
            builder.withLongFunctionCounter("stork_cache_revalidated", k -> cache.snapshot().revalidated());
            builder.withLongFunctionCounter("stork_cache_bytes_served", k -> cache.snapshot().bytesFromCache());
            builder.withLongFunctionCounter("stork_cache_bytes_fetched", k -> cache.snapshot().bytesFromStore());
            builder.withLongFunctionCounter("stork_cache_blocks_stored", k -> cache.snapshot().blocksStored());
            builder.withLongFunctionCounter("stork_cache_evictions", k -> cache.snapshot().evictions());
            builder.withLongFunctionCounter("stork_cache_damaged", k -> cache.snapshot().damaged());
            builder.withLongFunctionCounter("stork_cache_dropped", k -> cache.snapshot().dropped());
        }
        return builder.build();
    }
}
