package io.stork.store.memory;

import io.stork.store.StoreApi;
import io.stork.store.StoreConfig;

/**
 * Settings of the in-memory API: only the bucket, whose JVM-wide store {@link MemoryStores} hands out. No
 * endpoint and no credentials: nothing leaves the JVM.
 */
public record MemoryStoreConfig(String bucket) implements StoreConfig {

    public MemoryStoreConfig {
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("an in-memory store is named by its bucket, which is empty");
        }
    }

    @Override
    public StoreApi api() {
        return StoreApi.MEMORY;
    }
}
