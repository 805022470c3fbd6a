package io.stork.store.swift;

import java.net.URI;
import java.time.Instant;

/**
 * A token and the storage URL it is valid for. {@link #toString()} hides the token.
 *
 * @param refreshAt when to authenticate again before the token expires (Keystone tells its tokens' expiry);
 *                  null for tokens kept until the store rejects them (tempauth)
 */
record SwiftSession(URI storageUrl, String token, Instant refreshAt) {

    SwiftSession(URI storageUrl, String token) {
        this(storageUrl, token, null);
    }

    /** Whether the token should be replaced before it is used at {@code now}. */
    boolean due(Instant now) {
        return refreshAt != null && !now.isBefore(refreshAt);
    }

    @Override
    public String toString() {
        return "SwiftSession[" + storageUrl + (refreshAt == null ? "" : ", refresh at " + refreshAt) + "]";
    }
}
