package io.stork.store;

/** A conditional create found an object already there (HTTP 412). */
public class ObjectExistsException extends StoreException {

    public ObjectExistsException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
