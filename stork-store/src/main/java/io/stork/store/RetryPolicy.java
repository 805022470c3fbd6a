package io.stork.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded retries with exponential backoff and full jitter (the delay before attempt n+1 is uniform in
 * {@code [0, min(maxDelay, baseDelay * 2^n)]}), so that many clients throttled together do not retry in
 * lock-step. Only {@link StoreException#isRetryable()} failures are retried; callers retry only
 * idempotent calls.
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(5));
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        if (baseDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("retry delays must not be negative");
        }
    }

    /** A call that may be repeated. */
    @FunctionalInterface
    public interface Call<T> {
        T run() throws IOException;
    }

    /** Runs the call, repeating it on retryable failures up to {@code maxAttempts} times in all. */
    public <T> T run(Call<T> call) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.run();
            } catch (StoreException e) {
                if (!e.isRetryable() || attempt >= maxAttempts) {
                    throw e;
                }
                sleep(delayBefore(attempt + 1));
            }
        }
    }

    /** The randomised delay before the given attempt (2 = the first retry). */
    public Duration delayBefore(int attempt) {
        long base = baseDelay.toMillis();
        long cap = Math.min(maxDelay.toMillis(), base << Math.min(attempt - 2, 20));
        return cap <= 0 ? Duration.ZERO : Duration.ofMillis(ThreadLocalRandom.current().nextLong(cap + 1));
    }

    private static void sleep(Duration delay) throws InterruptedIOException {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to retry");
        }
    }
}
