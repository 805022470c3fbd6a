package io.stork.store.memory;

import io.stork.store.ObjectStore;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreApi;
import io.stork.store.StoreConfig;
import io.stork.store.StoreProvider;
import io.stork.store.StoreSettings;

/** The in-memory API, for {@link io.stork.store.StoreFactory} (service-loaded like the real clients). */
public final class MemoryStoreProvider implements StoreProvider {

    @Override
    public StoreApi api() {
        return StoreApi.MEMORY;
    }

    /** A test backend: no endpoint, no credentials, no keys of its own; the bucket names the store. */
    @Override
    public StoreConfig config(StoreSettings settings) {
        return new MemoryStoreConfig(settings.bucket());
    }

    /** The bucket's shared store: every open of one bucket in this JVM sees the same objects. */
    @Override
    public ObjectStore open(StoreConfig config, RetryPolicy retry) {
        return MemoryStores.shared(((MemoryStoreConfig) config).bucket());
    }
}
