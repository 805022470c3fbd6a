package io.stork.store;

/** The store rejected the credentials (wrong key or secret, expired token that could not be renewed). */
public class AuthenticationException extends StoreException {

    public AuthenticationException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }
}
