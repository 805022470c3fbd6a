package io.stork.store;

/** The store is throttling (503 SlowDown, 429) or failed internally (5xx): an idempotent call may be retried. */
public class TransientStoreException extends StoreException {

    public TransientStoreException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context, reason, httpStatus, cause);
    }

    @Override
    public boolean isRetryable() {
        return true;
    }
}
