package io.stork.hadoop;

import io.stork.store.cache.BlockCacheSettings;
import io.stork.store.cache.EvictionPolicy;
import io.stork.store.cache.CachingObjectStore;

import io.stork.store.ObjectStore;
import io.stork.store.StoreFactory;
import io.stork.store.StoreProvider;
import java.io.IOException;
import java.util.Map;

/**
 * Opens a bucket's store: the provider {@code fs.stork.api} names (service-loaded, so this class names no
 * backend) reads its own keys from the bucket's {@link StorkConfig}; {@link StoreFactory} assembles the
 * store (client, accounting, retries) from them, as for every other user of a store.
 */
final class ObjectStoreFactory {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ObjectStoreFactory.class);

    private ObjectStoreFactory() {
    }

    /**
     * The bucket's store, with the block cache when it is on; {@code cacheReads} is told of the cache's
     * bytes on the reading thread.
     */
    static ObjectStore create(StorkConfig config, io.stork.store.cache.CacheReadListener cacheReads) throws IOException {
        ObjectStore store = StoreFactory.open(provider(config).config(config), config.retryPolicy());
        if (!config.getBoolean(StorkConfig.CACHE_ENABLED, false)) {
            return store;
        }
        BlockCacheSettings cache = cacheSettings(config, store);
        try {
            return new CachingObjectStore(store, cache, cacheReads);
        } catch (IOException | java.io.UncheckedIOException e) {
            // A cache that cannot be made costs speed, never the read: go on without it, say so once.
            LOG.warn("stork://{}: block cache off: directory {} is not usable ({})", config.bucket(),
                    cache.directory(), e.getMessage());
            return store;
        }
    }

    private static StoreProvider provider(StorkConfig config) throws IOException {
        String api = config.api();
        Map<String, StoreProvider> providers = StoreFactory.providers();
        StoreProvider provider = providers.get(api);
        if (provider == null) {
            throw config.invalid(config.apiKey() + " must be one of " + String.join(", ", providers.keySet())
                    + " (the store APIs on the class path), not '" + api + "'");
        }
        return provider;
    }

    /**
     * The bucket's block cache: {@code <fs.stork.cache.directory>/<bucket>-<store digest>}, so that buckets
     * are bounded apart and two stores with a bucket of one name never share blocks.
     */
    private static BlockCacheSettings cacheSettings(StorkConfig c, ObjectStore store) throws IOException {
        String base = c.get(StorkConfig.CACHE_DIRECTORY, System.getProperty("java.io.tmpdir") + "/stork-block-cache-"
                + System.getProperty("user.name", "user"));
        String bucket = c.bucket().matches("[A-Za-z0-9._-]{1,100}") ? c.bucket() : "bucket";
        String digest = Integer.toHexString((store.description().toString() + "/" + c.bucket()).hashCode());
        try {
            long blockSize = c.getBytes(StorkConfig.CACHE_BLOCK_SIZE, BlockCacheSettings.DEFAULT_BLOCK_SIZE);
            if (blockSize > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("block cache block size " + blockSize + " is too large");
            }
            String eviction = c.get(StorkConfig.CACHE_EVICTION, null);
            return new BlockCacheSettings(java.nio.file.Path.of(base, bucket + "-" + digest), (int) blockSize,
                    c.getBytes(StorkConfig.CACHE_SIZE, BlockCacheSettings.DEFAULT_MAX_BYTES),
                    eviction == null ? BlockCacheSettings.DEFAULT_EVICTION : EvictionPolicy.of(eviction));
        } catch (IllegalArgumentException e) { // bad sizes, or a directory that is not a path
            throw new IOException("stork://" + c.bucket() + ": " + StorkConfig.PREFIX + "cache.*: " + e.getMessage());
        }
    }
}
