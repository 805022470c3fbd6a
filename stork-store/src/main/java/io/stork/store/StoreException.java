package io.stork.store;

import java.io.IOException;

/**
 * A failed store call. The message is one line: operation, object, store, reason and HTTP status, e.g.
 * {@code GET s3://data/a.csv on S3 API at http://127.0.0.1:8080: object not found (HTTP 404)}.
 * Subclasses name the failures callers act on; {@link #isRetryable()} says whether repeating an
 * idempotent call may succeed.
 */
public class StoreException extends IOException {

    private final OperationContext context;
    private final int httpStatus;

    public StoreException(OperationContext context, String reason, int httpStatus, Throwable cause) {
        super(context + ": " + reason + (httpStatus > 0 ? " (HTTP " + httpStatus + ")" : ""), cause);
        this.context = context;
        this.httpStatus = httpStatus;
    }

    public OperationContext context() {
        return context;
    }

    /** The HTTP status the store answered, or 0 when no answer came. */
    public int httpStatus() {
        return httpStatus;
    }

    public boolean isRetryable() {
        return false;
    }
}
