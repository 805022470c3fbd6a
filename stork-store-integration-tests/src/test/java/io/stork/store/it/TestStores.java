package io.stork.store.it;

import io.stork.store.ObjectStore;
import io.stork.store.RetryPolicy;
import io.stork.store.RetryingObjectStore;
import io.stork.store.StoreApi;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.s3.S3StoreConfig;
import io.stork.store.swift.SwiftObjectStore;
import io.stork.store.swift.SwiftStoreConfig;
import io.stork.localstore.LocalStore;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;

/** Clients of the shared local store, for either API. */
final class TestStores {

    static final RetryPolicy FAST_RETRIES = new RetryPolicy(4, Duration.ofMillis(20), Duration.ofMillis(200));

    private TestStores() {
    }

    static LocalStore local() {
        return LocalStore.shared();
    }

    static S3StoreConfig s3Config() {
        LocalStore store = local();
        return S3StoreConfig.of(store.s3Endpoint(), store.s3Region(), store.s3AccessKey(), store.s3SecretKey());
    }

    static SwiftStoreConfig swiftConfig() {
        LocalStore store = local();
        return SwiftStoreConfig.of(store.swiftAuthUrl(), store.swiftUser(), store.swiftKey());
    }

    /** A client with Stork's retry decorator, as the upper layers use it. */
    static ObjectStore open(StoreApi api) {
        return new RetryingObjectStore(openRaw(api), FAST_RETRIES);
    }

    static ObjectStore openRaw(StoreApi api) {
        return api == StoreApi.S3 ? new S3ObjectStore(s3Config()) : new SwiftObjectStore(swiftConfig());
    }

    /** A client that talks to the store through a proxy on another port. */
    static ObjectStore openVia(StoreApi api, int proxyPort) {
        if (api == StoreApi.S3) {
            S3StoreConfig c = s3Config();
            URI endpoint = URI.create("http://127.0.0.1:" + proxyPort);
            return new RetryingObjectStore(new S3ObjectStore(new S3StoreConfig(endpoint, c.region(), true,
                    c.accessKey(), c.secretKey(), c.partSize(), c.maxPartsInFlight(), c.maxConnections(),
                    c.connectTimeout(), c.socketTimeout(), c.conditionalWrites())), FAST_RETRIES);
        }
        SwiftStoreConfig c = swiftConfig();
        URI auth = URI.create("http://127.0.0.1:" + proxyPort + "/auth/v1.0");
        return new RetryingObjectStore(new SwiftObjectStore(new SwiftStoreConfig(auth, c.user(), c.key(),
                null, c.uploadChunkSize(), c.uploadBuffers(), c.connectTimeout(), c.requestTimeout(), c.verifyUploads())),
                FAST_RETRIES);
    }

    /** A bucket name unique to a test (S3 needs 3 to 63 lower-case characters). */
    static String uniqueBucket(String purpose) {
        return ("it-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase();
    }
}
