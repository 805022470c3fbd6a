package io.stork.store;

import java.util.Map;
import java.util.Objects;

/**
 * Options of a put or streaming upload.
 *
 * @param contentType    MIME type, or null for the store's default
 * @param userMetadata   user metadata (S3 {@code x-amz-meta-*}, Swift {@code X-Object-Meta-*}); names
 *                       are lower-cased by both APIs, so use lower-case names
 * @param ifNotExists    create only if no object has this key (HTTP {@code If-None-Match: *}); fails with
 *                       {@link ObjectExistsException} if one has, or with
 *                       {@link UnsupportedStoreOperationException} where the API cannot do it
 */
public record PutOptions(String contentType, Map<String, String> userMetadata, boolean ifNotExists) {

    private static final PutOptions DEFAULTS = new PutOptions(null, Map.of(), false);

    public PutOptions {
        userMetadata = userMetadata == null ? Map.of() : Map.copyOf(userMetadata);
        userMetadata.keySet().forEach(name -> Objects.requireNonNull(name, "metadata name"));
    }

    public static PutOptions defaults() {
        return DEFAULTS;
    }

    public PutOptions withContentType(String type) {
        return new PutOptions(type, userMetadata, ifNotExists);
    }

    public PutOptions withUserMetadata(Map<String, String> metadata) {
        return new PutOptions(contentType, metadata, ifNotExists);
    }

    public PutOptions withIfNotExists() {
        return new PutOptions(contentType, userMetadata, true);
    }
}
