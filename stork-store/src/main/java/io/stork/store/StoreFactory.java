package io.stork.store;

import java.util.ServiceLoader;

/**
 * The one place a store is assembled: the API's client (service-loaded {@link StoreProvider}), REST-call
 * accounting (in the client, counting each call it sends) and the retry decorator, with one retry policy
 * for both. The file system, the demo and the benchmarks all open stores here. The block cache
 * ({@link io.stork.store.cache.CachingObjectStore}) goes over a store opened here where its user turns it
 * on (the file system, per bucket: {@code fs.stork.cache.*}), outside the retries: a hit makes no call.
 */
public final class StoreFactory {

    private StoreFactory() {
    }

    public static ObjectStore open(StoreConfig config, RetryPolicy retry) {
        return new RetryingObjectStore(provider(config.api()).open(config, retry), retry);
    }

    /** The client alone, without retries: for measurements of the wire itself (throughput benchmarks). */
    public static ObjectStore openRaw(StoreConfig config) {
        return provider(config.api()).open(config, RetryPolicy.DEFAULT);
    }

    private static StoreProvider provider(StoreApi api) {
        for (StoreProvider provider : ServiceLoader.load(StoreProvider.class, StoreFactory.class.getClassLoader())) {
            if (provider.api() == api) {
                return provider;
            }
        }
        throw new IllegalStateException("no client for the " + api + " API on the class path (stork-store-"
                + api.name().toLowerCase(java.util.Locale.ROOT) + " is missing)");
    }
}
