package io.stork.store.swift;

import io.stork.store.ObjectStore;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreApi;
import io.stork.store.StoreConfig;
import io.stork.store.StoreProvider;

/**
 * The Swift client, for {@link io.stork.store.StoreFactory} (service-loaded). Its streaming uploads send
 * one chunked PUT, which cannot be retried part by part, so the policy applies to whole calls only.
 */
public final class SwiftStoreProvider implements StoreProvider {

    @Override
    public StoreApi api() {
        return StoreApi.SWIFT;
    }

    @Override
    public ObjectStore open(StoreConfig config, RetryPolicy retry) {
        return new SwiftObjectStore((SwiftStoreConfig) config);
    }
}
