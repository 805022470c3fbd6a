package io.stork.store;

/** The credentials are valid but do not allow this call. */
public class AccessDeniedException extends StoreException {

    public AccessDeniedException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
