package io.stork.store;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The one place a store is assembled: the API's client (service-loaded {@link StoreProvider}, chosen by its
 * id), REST-call accounting (in the client, counting each call it sends) and the retry decorator, with one
 * retry policy for both. The file system, the demo and the benchmarks all open stores here. The block cache
 * ({@link io.stork.store.cache.CachingObjectStore}) goes over a store opened here where its user turns it
 * on (the file system, per bucket: {@code fs.stork.cache.*}), outside the retries: a hit makes no call.
 */
public final class StoreFactory {

    private StoreFactory() {
    }

    public static ObjectStore open(StoreConfig config, RetryPolicy retry) {
        return new RetryingObjectStore(provider(config.api().id()).open(config, retry), retry);
    }

    /** The client alone, without retries: for measurements of the wire itself (throughput benchmarks). */
    public static ObjectStore openRaw(StoreConfig config) {
        return provider(config.api().id()).open(config, RetryPolicy.DEFAULT);
    }

    /**
     * The provider whose API has this id.
     *
     * @throws IllegalArgumentException none has: the one-line message lists the ids there are
     */
    public static StoreProvider provider(String id) {
        return provider(id, providers());
    }

    static StoreProvider provider(String id, Map<String, StoreProvider> providers) {
        StoreProvider provider = providers.get(id);
        if (provider == null) {
            throw new IllegalArgumentException("unknown store API '" + id + "': the class path has "
                    + String.join(", ", providers.keySet()) + " (a backend is added by its module, stork-store-<api>)");
        }
        return provider;
    }

    /**
     * The providers on the class path by id, in order of id. Loaded on each call, as stores are opened
     * once per file system instance, not per operation.
     *
     * @throws IllegalStateException two claim one id: which one a bucket got would depend on class-path order
     */
    public static Map<String, StoreProvider> providers() {
        return providers(StoreFactory.class.getClassLoader());
    }

    /** The providers {@code loader} finds; for tests, which add a backend by a service entry of their own. */
    static Map<String, StoreProvider> providers(ClassLoader loader) {
        Map<String, StoreProvider> providers = new TreeMap<>();
        for (StoreProvider provider : ServiceLoader.load(StoreProvider.class, loader)) {
            StoreProvider other = providers.putIfAbsent(provider.api().id(), provider);
            // The same class twice (its jar twice on the class path) is one provider.
            if (other != null && !other.getClass().getName().equals(provider.getClass().getName())) {
                throw new IllegalStateException("two store providers have the API id '" + provider.api().id()
                        + "': " + other.getClass().getName() + " and " + provider.getClass().getName());
            }
        }
        return java.util.Collections.unmodifiableMap(providers);
    }
}
