package io.stork.store;

/**
 * Builds the raw client of one API; found through {@link java.util.ServiceLoader}, so that the layers
 * above name no client class and an API is added by adding its module.
 */
public interface StoreProvider {

    StoreApi api();

    /**
     * @param retry the policy for retries the client makes itself (a streaming upload's parts, whose bytes
     *              only the client holds); whole calls are retried by the decorator {@link StoreFactory} adds
     */
    ObjectStore open(StoreConfig config, RetryPolicy retry);
}
