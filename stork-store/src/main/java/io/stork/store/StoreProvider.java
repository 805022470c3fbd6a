package io.stork.store;

import java.io.IOException;

/**
 * One backend: the API it speaks, the settings it reads and the client it builds. Found through
 * {@link java.util.ServiceLoader} (a line in {@code META-INF/services/io.stork.store.StoreProvider} of the
 * backend's module), so that the layers above name no client class, read none of its keys, and a backend
 * (or a way of authenticating) is added by adding its module.
 */
public interface StoreProvider {

    /** The API; its {@link StoreApi#id() id} is what {@code fs.stork.api} names, unique on the class path. */
    StoreApi api();

    /**
     * The client's settings, read from one bucket's settings: the provider owns its keys, their defaults
     * and their checks. A missing or invalid setting fails with {@link StoreSettings#invalid}'s one-line
     * message, which names the key and never a secret's value.
     */
    StoreConfig config(StoreSettings settings) throws IOException;

    /**
     * @param config settings this provider made or of its own type ({@link StoreConfig#api()} is its API)
     * @param retry  the policy for retries the client makes itself (a streaming upload's parts, whose bytes
     *               only the client holds); whole calls are retried by the decorator {@link StoreFactory} adds
     */
    ObjectStore open(StoreConfig config, RetryPolicy retry);
}
