package io.stork.store;

/**
 * No answer from the endpoint: connection refused, unknown host, timeout or reset. A refused connection
 * or unknown host is final (the endpoint is wrong or down); a reset or timeout mid-call is retryable.
 */
public class StoreUnreachableException extends StoreException {

    private final boolean retryable;

    public StoreUnreachableException(OperationContext context, String reason, boolean retryable, Throwable cause) {
        super(context, reason, 0, cause);
        this.retryable = retryable;
    }

    @Override
    public boolean isRetryable() {
        return retryable;
    }
}
