package io.stork.store.swift;

import java.net.URI;

/** A token and the storage URL it is valid for. {@link #toString()} hides the token. */
record SwiftSession(URI storageUrl, String token) {

    @Override
    public String toString() {
        return "SwiftSession[" + storageUrl + "]";
    }
}
