package io.stork.store;

import java.util.Objects;

/** Names a store in messages and logs: its API and endpoint. Holds no credentials by construction. */
public record StoreDescription(StoreApi api, String endpoint) {

    public StoreDescription {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(endpoint, "endpoint");
    }

    /** The URI-like name of an object, as used in messages: {@code s3://bucket/key}. */
    public String locate(String bucket, String key) {
        StringBuilder b = new StringBuilder(api.id()).append("://");
        if (bucket != null) {
            b.append(bucket);
            if (key != null) {
                b.append('/').append(key);
            }
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return api.displayName() + " at " + endpoint;
    }
}
