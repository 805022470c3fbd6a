package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreApi;
import io.stork.store.TransientStoreException;
import io.stork.store.UploadStream;
import io.stork.localstore.AccessLog;
import io.stork.localstore.FaultInjectingProxy;
import io.stork.localstore.FaultInjectingProxy.Fault;
import io.stork.localstore.StoreCallCounts;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store made to fail by a proxy of the test's own: throttling (503), dropped connections, expired
 * tokens. Idempotent calls are retried and the data arrives exactly once, as the store's log shows.
 */
class RetryAndFaultIT {

    private static final int MIB = 1024 * 1024;

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void throttledAndDroppedPutsAreRetriedAndLandOnce(StoreApi api) throws IOException {
        String bucket = TestStores.uniqueBucket("retry-" + api.id());
        try (ObjectStore direct = TestStores.open(api)) {
            direct.createBucket(bucket);
        }
        AccessLog log = TestStores.local().accessLog();
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(TestStores.local().port());
             ObjectStore store = TestStores.openVia(api, proxy.port())) {
            Fault throttle = api == StoreApi.S3 ? Fault.SLOW_DOWN : Fault.SERVICE_UNAVAILABLE;
            proxy.failNext(2, throttle, line -> line.startsWith("PUT ") && line.contains("/retried"))
                    .failNext(1, Fault.DROP_CONNECTION, line -> line.startsWith("PUT ") && line.contains("/retried"));
            byte[] data = ObjectStoreOperationsIT.randomBytes(200_000, 6);

            var before = store.statistics().snapshot();
            AccessLog.Window window = log.openWindow();
            store.put(ObjectKey.of(bucket, "retried"), PutBody.of(data), PutOptions.defaults());
            StoreCallCounts atStore = window.counts();
            var byClient = store.statistics().snapshot().minus(before);

            assertThat(proxy.injectedFaults()).hasSize(3);
            assertThat(atStore.calls(CallType.PUT)).as("PUTs that reached the store").isEqualTo(1);
            assertThat(atStore.bytesReceived()).isEqualTo(data.length);
            // The client counted each attempt it sent: three failed, one landed.
            assertThat(byClient.calls(CallType.PUT)).isEqualTo(4);
            assertThat(byClient.failures().get(CallType.PUT)).isEqualTo(3);
            assertThat(ObjectStoreOperationsIT.readAll(store.get(ObjectKey.of(bucket, "retried"), ByteRange.all())))
                    .isEqualTo(data);
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void readsAndListingsSurviveDroppedConnections(StoreApi api) throws IOException {
        String bucket = TestStores.uniqueBucket("drop-" + api.id());
        byte[] data = ObjectStoreOperationsIT.randomBytes(1000, 7);
        try (ObjectStore direct = TestStores.open(api)) {
            direct.createBucket(bucket);
            direct.put(ObjectKey.of(bucket, "object"), PutBody.of(data), PutOptions.defaults());
        }
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(TestStores.local().port());
             ObjectStore store = TestStores.openVia(api, proxy.port())) {
            proxy.failNext(1, Fault.DROP_CONNECTION, line -> line.startsWith("GET ") && line.contains("/object"))
                    .failNext(1, Fault.DROP_CONNECTION, line -> line.startsWith("HEAD "))
                    .failNext(2, Fault.SERVICE_UNAVAILABLE, line -> line.startsWith("GET ") && !line.contains("/object")
                            && !line.contains("/auth/"));
            assertThat(ObjectStoreOperationsIT.readAll(store.get(ObjectKey.of(bucket, "object"), ByteRange.all())))
                    .isEqualTo(data);
            assertThat(store.head(ObjectKey.of(bucket, "object")).length()).isEqualTo(1000);
            assertThat(UploadCommitAndAbortIT.keys(store, bucket)).containsExactly("object");
            assertThat(proxy.injectedFaults()).hasSize(4);
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void retriesAreBoundedAndTheLastFailureIsReported(StoreApi api) throws IOException {
        String bucket = TestStores.uniqueBucket("bound-" + api.id());
        try (ObjectStore direct = TestStores.open(api)) {
            direct.createBucket(bucket);
        }
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(TestStores.local().port());
             ObjectStore store = TestStores.openVia(api, proxy.port())) {
            proxy.failNext(100, Fault.SERVICE_UNAVAILABLE, line -> line.startsWith("HEAD "));
            assertThatThrownBy(() -> store.head(ObjectKey.of(bucket, "x")))
                    .isInstanceOf(TransientStoreException.class).hasMessageContaining("503")
                    .hasMessageContaining("HEAD");
            assertThat(proxy.injectedFaults()).hasSize(TestStores.FAST_RETRIES.maxAttempts());
        }
    }

    @Test
    void aMultipartPartThatIsThrottledIsRetriedFromItsBuffer() throws IOException {
        String bucket = TestStores.uniqueBucket("part-retry");
        try (ObjectStore direct = TestStores.open(StoreApi.S3)) {
            direct.createBucket(bucket);
        }
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(TestStores.local().port());
             ObjectStore store = new io.stork.store.s3.S3ObjectStore(new io.stork.store.s3.S3StoreConfig(
                     java.net.URI.create("http://127.0.0.1:" + proxy.port()), "us-east-1", true,
                     TestStores.local().s3AccessKey(), TestStores.local().s3SecretKey(), 5 * MIB, 2, 8,
                     java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(30), false))) {
            proxy.failNext(2, Fault.SLOW_DOWN, line -> line.startsWith("PUT ") && line.contains("partNumber=2"));
            byte[] data = ObjectStoreOperationsIT.randomBytes(12 * MIB, 8);
            try (UploadStream out = store.create(ObjectKey.of(bucket, "multipart"), PutOptions.defaults())) {
                out.write(data);
            }
            assertThat(proxy.injectedFaults()).hasSize(2);
            assertThat(ObjectStoreOperationsIT.readAll(store.get(ObjectKey.of(bucket, "multipart"), ByteRange.all())))
                    .isEqualTo(data);
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void aStreamingUploadThatFailsPartWayLeavesNoObjectAndNoParts(StoreApi api) throws IOException {
        String bucket = TestStores.uniqueBucket("partway-" + api.id());
        try (ObjectStore direct = TestStores.open(api)) {
            direct.createBucket(bucket);
        }
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(TestStores.local().port());
             ObjectStore store = api == StoreApi.S3
                     ? new io.stork.store.s3.S3ObjectStore(new io.stork.store.s3.S3StoreConfig(
                             java.net.URI.create("http://127.0.0.1:" + proxy.port()), "us-east-1", true,
                             TestStores.local().s3AccessKey(), TestStores.local().s3SecretKey(), 5 * MIB, 2, 8,
                             java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(30), false))
                     : TestStores.openVia(api, proxy.port())) {
            // S3: part 2 is throttled beyond every retry; Swift: the chunked PUT's connection is dropped.
            if (api == StoreApi.S3) {
                proxy.failNext(100, Fault.SLOW_DOWN, line -> line.startsWith("PUT ") && line.contains("partNumber=2"));
            } else {
                proxy.failNext(1, Fault.DROP_CONNECTION, line -> line.startsWith("PUT ") && line.contains("/doomed"));
            }
            ObjectKey key = ObjectKey.of(bucket, "doomed");
            UploadStream out = store.create(key, PutOptions.defaults());
            byte[] chunk = new byte[MIB];
            IOException failure = null;
            try {
                for (int i = 0; i < 16; i++) {
                    out.write(chunk);
                }
                out.close();
            } catch (IOException e) {
                failure = e;
            }
            assertThat(failure).as("the upload must fail").isNotNull();
            assertThat(failure.getMessage()).doesNotContain("\n").contains("doomed");
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(io.stork.store.ObjectNotFoundException.class);
            try (ObjectStore swift = TestStores.open(StoreApi.SWIFT)) {
                assertThat(UploadCommitAndAbortIT.keys(swift, bucket + "+segments")).as("orphaned parts").isEmpty();
            }
        }
    }

    @Test
    void anExpiredSwiftTokenIsRenewedOnceAndTheCallSucceeds() throws IOException {
        String bucket = TestStores.uniqueBucket("reauth");
        try (ObjectStore direct = TestStores.open(StoreApi.SWIFT)) {
            direct.createBucket(bucket);
        }
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(TestStores.local().port());
             ObjectStore store = TestStores.openVia(StoreApi.SWIFT, proxy.port())) {
            assertThat(UploadCommitAndAbortIT.keys(store, bucket)).isEmpty();
            proxy.failNext(1, Fault.UNAUTHORIZED, line -> line.startsWith("PUT "));
            store.put(ObjectKey.of(bucket, "after-expiry"), PutBody.of(new byte[] {1, 2}), PutOptions.defaults());
            var calls = store.statistics().snapshot();
            assertThat(calls.calls(CallType.AUTH)).isEqualTo(2);
            assertThat(calls.calls(CallType.PUT)).isEqualTo(2);
            assertThat(store.head(ObjectKey.of(bucket, "after-expiry")).length()).isEqualTo(2);
            assertThat(store.list(ListRequest.of(bucket, "")).hasNext()).isTrue();
        }
    }
}
