package io.stork.store;

/** A ranged read started at or past the end of the object (HTTP 416). */
public class RangeNotSatisfiableException extends StoreException {

    public RangeNotSatisfiableException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
