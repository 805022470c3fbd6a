package io.stork.store.cache;

import io.stork.store.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One block of one version of an object: bucket, key, ETag and block index. The ETag is part of the
 * identity, so a changed object can never be served from blocks of its previous version.
 */
record BlockId(ObjectKey key, String etag, long index) {

    BlockId {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(etag, "etag");
        if (index < 0) {
            throw new IllegalArgumentException("negative block index");
        }
    }

    /**
     * The file name: a digest of the version (object names can be long and hold any character) and the
     * block index. Keys and ETags never appear on disk in clear.
     */
    String fileName() {
        return versionDigest(key, etag) + "-" + index;
    }

    static String versionDigest(ObjectKey key, String etag) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(key.bucket().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(key.key().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(etag.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest(), 0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
