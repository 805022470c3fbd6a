package io.stork.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final StoreDescription STORE = new StoreDescription(StoreApi.S3, "http://example");
    private static final OperationContext CONTEXT = new OperationContext("GET", STORE, "b", "k");
    private final RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(4));

    @Test
    void retriesRetryableFailuresUpToTheLimit() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        String result = policy.run(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new TransientStoreException(CONTEXT, "throttled", 503, null);
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(calls).hasValue(3);

        calls.set(0);
        assertThatThrownBy(() -> policy.run(() -> {
            calls.incrementAndGet();
            throw new TransientStoreException(CONTEXT, "throttled", 503, null);
        })).isInstanceOf(TransientStoreException.class);
        assertThat(calls).hasValue(3);
    }

    @Test
    void doesNotRetryFinalFailures() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> policy.run(() -> {
            calls.incrementAndGet();
            throw new ObjectNotFoundException(CONTEXT, "object not found", 404, null);
        })).isInstanceOf(ObjectNotFoundException.class).hasMessage("GET s3://b/k on S3 API at http://example: "
                + "object not found (HTTP 404)");
        assertThat(calls).hasValue(1);
    }

    @Test
    void delaysGrowExponentiallyWithFullJitterAndAreCapped() {
        RetryPolicy slow = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofMillis(1000));
        for (int i = 0; i < 200; i++) {
            assertThat(slow.delayBefore(2).toMillis()).isBetween(0L, 100L);
            assertThat(slow.delayBefore(3).toMillis()).isBetween(0L, 200L);
            assertThat(slow.delayBefore(9).toMillis()).isBetween(0L, 1000L);
        }
        long distinct = java.util.stream.IntStream.range(0, 50).mapToLong(i -> slow.delayBefore(5).toMillis())
                .distinct().count();
        assertThat(distinct).as("jittered").isGreaterThan(10);
    }
}
