package io.stork.store;

/** The settings of one store client; each API's client has its own (S3StoreConfig, SwiftStoreConfig). */
public interface StoreConfig {

    /** The API these settings are for: picks the {@link StoreProvider}. */
    StoreApi api();
}
