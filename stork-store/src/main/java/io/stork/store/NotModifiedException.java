package io.stork.store;

/**
 * A revalidation ({@link ReadCondition#ifNoneMatch}) found the object unchanged (HTTP 304): the caller's
 * copy is current. Not a failure; an exception so that the plain GET keeps its simple signature.
 */
public class NotModifiedException extends StoreException {

    public NotModifiedException(OperationContext context, int httpStatus) {
        super(context, "not modified", httpStatus, null);
    }
}
