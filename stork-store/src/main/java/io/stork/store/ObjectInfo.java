package io.stork.store;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What the store says about an object. {@code etag} is the store's entity tag without quotes (an MD5 for
 * simple objects, something else for multipart/segmented ones): use it to detect change, not to verify
 * content. {@code lastModified} and {@code userMetadata} may be empty where a call does not return them
 * (a PUT response, a listing).
 */
public record ObjectInfo(ObjectKey key, long length, String etag, Instant lastModified,
                         Map<String, String> userMetadata) {

    public ObjectInfo {
        Objects.requireNonNull(key, "key");
        if (length < 0) {
            throw new IllegalArgumentException("negative length for " + key);
        }
        userMetadata = userMetadata == null ? Map.of() : Map.copyOf(userMetadata);
    }

    /** Strips the quotes some APIs put around entity tags. */
    public static String unquoteEtag(String etag) {
        if (etag != null && etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")) {
            return etag.substring(1, etag.length() - 1);
        }
        return etag;
    }
}
