package io.stork.store.s3;

import io.stork.store.ObjectStore;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreApi;
import io.stork.store.StoreConfig;
import io.stork.store.StoreProvider;

/** The S3 client, for {@link io.stork.store.StoreFactory} (service-loaded). */
public final class S3StoreProvider implements StoreProvider {

    @Override
    public StoreApi api() {
        return StoreApi.S3;
    }

    @Override
    public ObjectStore open(StoreConfig config, RetryPolicy retry) {
        return new S3ObjectStore((S3StoreConfig) config, retry);
    }
}
