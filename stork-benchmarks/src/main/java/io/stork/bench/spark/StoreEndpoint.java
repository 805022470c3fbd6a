package io.stork.bench.spark;

import io.stork.localstore.LocalStore;
import java.net.URI;

/**
 * Where and as whom the scenarios reach the store. Normally the local store itself; in slow-link mode
 * with added latency, the delaying proxy in front of it ({@link #through(String)}).
 */
public record StoreEndpoint(URI s3Endpoint, String region, String accessKey, String secretKey, URI swiftAuthUrl,
                            String swiftUser, String swiftKey) {

    public static StoreEndpoint of(LocalStore store) {
        return new StoreEndpoint(store.s3Endpoint(), store.s3Region(), store.s3AccessKey(), store.s3SecretKey(),
                store.swiftAuthUrl(), store.swiftUser(), store.swiftKey());
    }

    /** The same store reached at another {@code host:port} (a proxy forwarding to it). */
    public StoreEndpoint through(String hostAndPort) {
        return new StoreEndpoint(URI.create("http://" + hostAndPort), region, accessKey, secretKey,
                URI.create("http://" + hostAndPort + swiftAuthUrl.getPath()), swiftUser, swiftKey);
    }

    @Override
    public String toString() {
        return "StoreEndpoint[" + s3Endpoint + "]";
    }
}
