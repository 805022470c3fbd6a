package io.stork.store;

/** A read conditioned on an entity tag ({@link ReadCondition#ifMatch}) found another version (HTTP 412). */
public class ObjectChangedException extends StoreException {

    public ObjectChangedException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
