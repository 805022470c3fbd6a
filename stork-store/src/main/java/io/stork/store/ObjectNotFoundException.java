package io.stork.store;

/** The object does not exist. */
public class ObjectNotFoundException extends StoreException {

    public ObjectNotFoundException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
