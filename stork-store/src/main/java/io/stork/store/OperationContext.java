package io.stork.store;

/**
 * The call an error happened in: operation, store, bucket and key. Renders the one-line prefix of
 * every {@link StoreException} message. Carries no credentials by construction.
 */
public record OperationContext(String operation, StoreDescription store, String bucket, String key) {

    public static OperationContext of(String operation, StoreDescription store, ObjectKey key) {
        return new OperationContext(operation, store, key.bucket(), key.key());
    }

    public static OperationContext ofBucket(String operation, StoreDescription store, String bucket) {
        return new OperationContext(operation, store, bucket, null);
    }

    @Override
    public String toString() {
        String target = bucket == null ? "" : " " + store.locate(bucket, key);
        return operation + target + " on " + store;
    }
}
