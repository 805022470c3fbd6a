package io.stork.store;

/** The API of this store cannot do what was asked (e.g. conditional create through this store's S3 API). */
public class UnsupportedStoreOperationException extends StoreException {

    public UnsupportedStoreOperationException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
