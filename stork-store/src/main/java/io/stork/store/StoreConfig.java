package io.stork.store;

/**
 * The settings of one store client; each API's client has its own (S3StoreConfig, SwiftStoreConfig), built
 * by its {@link StoreProvider} from a bucket's {@link StoreSettings} or by hand.
 */
public interface StoreConfig {

    /** The API these settings are for: picks the {@link StoreProvider} by its id. */
    StoreApi api();
}
