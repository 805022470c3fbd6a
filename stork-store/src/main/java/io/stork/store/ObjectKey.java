package io.stork.store;

/**
 * An object's address: bucket (S3) or container (Swift), and key. Keys are stored verbatim: no
 * normalisation, so {@code a//b} and {@code a/b} are different objects, as they are in the store.
 */
public record ObjectKey(String bucket, String key) {

    public ObjectKey {
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("bucket name is empty");
        }
        if (bucket.indexOf('/') >= 0) {
            throw new IllegalArgumentException("bucket name contains '/': " + bucket);
        }
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("object key is empty (bucket " + bucket + ")");
        }
    }

    public static ObjectKey of(String bucket, String key) {
        return new ObjectKey(bucket, key);
    }

    @Override
    public String toString() {
        return bucket + "/" + key;
    }
}
