package io.stork.store;

/** The bucket (S3) or container (Swift) does not exist. */
public class BucketNotFoundException extends StoreException {

    public BucketNotFoundException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
