package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreFactory;
import io.stork.store.s3.S3StoreConfig;
import io.stork.localstore.ConditionalS3Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The S3 client with conditional writes on, against a real S3 gateway that honours them
 * (scripts/conditional-s3-store.sh): a create without overwrite is atomic, so of concurrent creates of one
 * key exactly one succeeds. Calls are counted at the gateway's access log.
 */
class ConditionalWritesStoreTest {

    static ObjectStore open() {
        ConditionalS3Store gateway = ConditionalS3Store.shared();
        return StoreFactory.open(S3StoreConfig.of(gateway.endpoint(), gateway.region(), gateway.accessKey(),
                gateway.secretKey()).withConditionalWrites(true), RetryPolicy.DEFAULT);
    }

    @Test
    void concurrentConditionalCreatesOfOneKeyHaveExactlyOneWinner() throws Exception {
        ConditionalS3Store gateway = ConditionalS3Store.shared();
        try (ObjectStore store = open()) {
            assertThat(store.supportsConditionalCreate()).isTrue();
            assertThat(store.conditionalCreateIsAtomic()).isTrue();
            String bucket = TestStores.uniqueBucket("cond");
            store.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "_stork/generation-2");
            int mark = gateway.accessLogMark();

            int racers = 12;
            CyclicBarrier start = new CyclicBarrier(racers);
            ExecutorService pool = Executors.newFixedThreadPool(racers);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                byte[] body = ("job-" + i).getBytes(StandardCharsets.UTF_8);
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        store.put(key, PutBody.of(body), PutOptions.defaults().withIfNotExists());
                        return true;
                    } catch (ObjectExistsException lost) {
                        return false;
                    }
                }));
            }
            int winners = 0;
            for (Future<Boolean> result : results) {
                winners += result.get() ? 1 : 0;
            }
            pool.shutdown();
            assertThat(winners).isEqualTo(1);
            assertThat(gateway.callsSince(mark)).as("at the gateway")
                    .isEqualTo(Map.of("PutObject 200", 1, "PutObject 412", racers - 1));
            assertThat(store.statistics().snapshot().totalCalls()).isGreaterThanOrEqualTo(racers);
        }
    }

    @Test
    void conditionalReadsWorkThereToo() throws Exception {
        try (ObjectStore store = open()) {
            String bucket = TestStores.uniqueBucket("condread");
            store.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "_SUCCESS");
            ObjectInfo first = store.put(key, PutBody.of("one".getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());
            assertThatThrownBy(() -> store.get(key, ByteRange.all(), ReadCondition.ifNoneMatch(first.etag())))
                    .isInstanceOf(NotModifiedException.class);
            store.put(key, PutBody.of("two".getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());
            assertThatThrownBy(() -> store.get(key, ByteRange.all(), ReadCondition.ifMatch(first.etag())))
                    .isInstanceOf(ObjectChangedException.class);
            assertThatThrownBy(() -> store.put(key, PutBody.of(new byte[1]), PutOptions.defaults().withIfNotExists()))
                    .isInstanceOf(ObjectExistsException.class);
        }
    }
}
