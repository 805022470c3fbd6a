package io.stork.hadoop;

import io.stork.store.cache.BlockCacheSettings;
import io.stork.store.cache.EvictionPolicy;
import io.stork.store.cache.CachingObjectStore;

import io.stork.store.ObjectStore;
import io.stork.store.StoreConfig;
import io.stork.store.StoreFactory;
import io.stork.store.memory.MemoryStoreConfig;
import io.stork.store.s3.S3StoreConfig;
import io.stork.store.swift.SwiftStoreConfig;
import java.io.IOException;
import java.time.Duration;

/**
 * Turns a bucket's Hadoop configuration into its API's store settings; {@link StoreFactory} assembles the
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
        StoreConfig settings = switch (config.api()) {
            case S3 -> s3(config);
            case SWIFT -> swift(config);
            // A test backend: no endpoint, no credentials; the bucket's store is shared in the JVM.
            case MEMORY -> new MemoryStoreConfig(config.bucket());
        };
        ObjectStore store = StoreFactory.open(settings, config.retryPolicy());
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

    private static StoreConfig s3(StorkConfig c) throws IOException {
        String accessKey = c.secret(StorkConfig.ACCESS_KEY);
        String secretKey = c.secret(StorkConfig.ACCESS_SECRET, StorkConfig.SECRET_KEY_DEPRECATED);
        if ((accessKey == null) != (secretKey == null)) {
            throw new IOException("stork://" + c.bucket() + ": set both " + StorkConfig.PREFIX + StorkConfig.ACCESS_KEY
                    + " and " + StorkConfig.PREFIX + StorkConfig.ACCESS_SECRET + ", or neither (to use the environment)");
        }
        try {
            return new S3StoreConfig(c.uri(StorkConfig.ENDPOINT),
                    c.get(StorkConfig.REGION, "us-east-1"), c.getBoolean(StorkConfig.PATH_STYLE_ACCESS, true),
                    accessKey, secretKey,
                    c.getBytes(StorkConfig.MULTIPART_SIZE, S3StoreConfig.DEFAULT_PART_SIZE),
                    c.getInt(StorkConfig.MULTIPART_IN_FLIGHT, S3StoreConfig.DEFAULT_PARTS_IN_FLIGHT),
                    c.getInt(StorkConfig.CONNECTION_MAXIMUM, 32),
                    c.getDuration(StorkConfig.CONNECTION_TIMEOUT, Duration.ofSeconds(10)),
                    c.getDuration(StorkConfig.SOCKET_TIMEOUT, Duration.ofSeconds(60)),
                    c.getBoolean(StorkConfig.S3_CONDITIONAL_WRITES, false));
        } catch (IllegalArgumentException e) {
            throw new IOException("stork://" + c.bucket() + ": " + e.getMessage());
        }
    }

    private static StoreConfig swift(StorkConfig c) throws IOException {
        String user = c.required(StorkConfig.SWIFT_USER);
        String key = c.secret(StorkConfig.SWIFT_PASSWORD, StorkConfig.SWIFT_KEY_DEPRECATED);
        if (key == null) {
            throw new IOException("stork://" + c.bucket() + ": missing " + StorkConfig.PREFIX + StorkConfig.SWIFT_PASSWORD
                    + " (Swift credentials)");
        }
        try {
            return new SwiftStoreConfig(c.uri(StorkConfig.SWIFT_AUTH_URL), user, key, null,
                    (int) c.getBytes(StorkConfig.SWIFT_UPLOAD_BUFFER_SIZE, 1024 * 1024),
                    c.getInt(StorkConfig.SWIFT_UPLOAD_BUFFERS, 4),
                    c.getDuration(StorkConfig.CONNECTION_TIMEOUT, Duration.ofSeconds(10)),
                    c.getDuration(StorkConfig.SOCKET_TIMEOUT, Duration.ofSeconds(60)), false,
                    c.getBytes(StorkConfig.SWIFT_SEGMENT_SIZE, 0));
        } catch (IllegalArgumentException e) {
            throw new IOException("stork://" + c.bucket() + ": " + e.getMessage());
        }
    }
}
