package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreApi;
import io.stork.store.StoreIterator;
import io.stork.store.UploadStream;
import io.stork.store.s3.S3ObjectStore;
import io.stork.localstore.AccessLog;
import io.stork.localstore.StoreCallCounts;
import io.stork.localstore.SwiftBulkLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * REST calls counted at the store's access log, and by the client's own counters: both must give the
 * same numbers, and those numbers are the documented costs of each operation.
 */
class CallCountIT {

    private static final int MANY = 2_500;
    /** Runs an action and returns the calls the store logged for it, checking the client agrees. */
    static StoreCallCounts measured(ObjectStore store, IoAction action) throws IOException {
        StatisticsSnapshot before = store.statistics().snapshot();
        AccessLog.Window window = TestStores.local().accessLog().openWindow();
        action.run();
        StoreCallCounts atStore = window.counts();
        StatisticsSnapshot byClient = store.statistics().snapshot().minus(before);
        assertThat(atStore.callsByType()).as("store vs client").isEqualTo(byClient.callsByType());
        return atStore;
    }

    interface IoAction {
        void run() throws IOException;
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void eachOperationCostsItsDocumentedCalls(StoreApi api) throws IOException {
        try (ObjectStore store = TestStores.openRaw(api)) {
            String bucket = TestStores.uniqueBucket("count-" + api.id());
            // The first call of a Swift client authenticates: count it separately.
            StoreCallCounts setup = measured(store, () -> store.createBucket(bucket));
            assertThat(setup.calls(CallType.BUCKET_CREATE)).isEqualTo(1);
            assertThat(setup.calls(CallType.AUTH)).isEqualTo(api == StoreApi.SWIFT ? 1 : 0);

            ObjectKey key = ObjectKey.of(bucket, "dir/small");
            byte[] data = new byte[1234];
            StoreCallCounts put = measured(store, () -> store.put(key, PutBody.of(data), PutOptions.defaults()));
            assertThat(put.byType()).isEqualTo(Map.of(CallType.PUT, 1L));
            assertThat(put.bytesReceived()).isEqualTo(1234);

            StoreCallCounts get = measured(store, () -> {
                try (var in = store.get(key, ByteRange.all())) {
                    assertThat(in.readAllBytes()).hasSize(1234);
                }
            });
            assertThat(get.byType()).isEqualTo(Map.of(CallType.GET, 1L));
            assertThat(get.bytesSent()).isEqualTo(1234);

            assertThat(measured(store, () -> store.head(key)).byType()).isEqualTo(Map.of(CallType.HEAD, 1L));
            assertThat(measured(store, () -> store.copy(key, ObjectKey.of(bucket, "dir/copy"))).byType())
                    .isEqualTo(Map.of(CallType.COPY, 1L));
            assertThat(measured(store, () -> store.delete(ObjectKey.of(bucket, "dir/copy"))).byType())
                    .isEqualTo(Map.of(CallType.DELETE, 1L));

            StoreCallCounts smallStream = measured(store, () -> {
                try (UploadStream out = store.create(ObjectKey.of(bucket, "dir/streamed-small"), PutOptions.defaults())) {
                    out.write(new byte[1000]);
                }
            });
            assertThat(smallStream.byType()).isEqualTo(Map.of(CallType.PUT, 1L));

            List<String> many = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                many.add("bulk/" + i);
                store.put(ObjectKey.of(bucket, "bulk/" + i), PutBody.of(new byte[] {1}), PutOptions.defaults());
            }
            StoreCallCounts bulk = measured(store, () -> assertThat(store.deleteAll(bucket, many).allDeleted()).isTrue());
            assertThat(bulk.byType()).isEqualTo(Map.of(CallType.BULK_DELETE, 1L));
        }
    }

    /**
     * One fixture of 2,500 keys serves both APIs (objects are shared), loaded with one bulk request:
     * the store writes each object at roughly 60 per second on two cores.
     */
    @Test
    void listing2500KeysTakesThreeListsThroughBothApisAndBulkDeleteBatchesThem() throws IOException {
        String bucket = TestStores.uniqueBucket("list");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            keys.add(String.format("many/part-%05d", i));
        }
        try (ObjectStore s3 = TestStores.open(StoreApi.S3); ObjectStore swift = TestStores.open(StoreApi.SWIFT)) {
            s3.createBucket(bucket);
            fill(bucket, keys);
            for (ObjectStore store : List.of(s3, swift)) {
                List<String> listed = new ArrayList<>();
                StoreCallCounts flat = measured(store, () -> listed.addAll(names(store, ListRequest.of(bucket, "many/"))));
                assertThat(listed).containsExactlyElementsOf(keys);
                assertThat(flat.calls(CallType.LIST)).isEqualTo(3);
                assertThat(flat.total() - flat.calls(CallType.AUTH)).isEqualTo(3);

                List<String> delimited = new ArrayList<>();
                StoreCallCounts rolled = measured(store, () -> delimited.addAll(
                        names(store, ListRequest.of(bucket, "many/").withDelimiter("/"))));
                assertThat(delimited).containsExactlyElementsOf(keys);
                assertThat(rolled.byType()).isEqualTo(Map.of(CallType.LIST, 3L));

                List<String> prefixes = new ArrayList<>();
                StoreCallCounts top = measured(store, () -> prefixes.addAll(
                        names(store, ListRequest.of(bucket, "").withDelimiter("/"))));
                assertThat(prefixes).containsExactly("many/");
                assertThat(top.byType()).isEqualTo(Map.of(CallType.LIST, 1L));
            }
            // S3 deletes at most 1,000 keys a request; Swift takes 10,000 (checked in eachOperationCostsItsDocumentedCalls).
            StoreCallCounts deleted = measured(s3, () -> assertThat(s3.deleteAll(bucket, keys).allDeleted()).isTrue());
            assertThat(deleted.byType()).isEqualTo(Map.of(CallType.BULK_DELETE, 3L));
            assertThat(names(s3, ListRequest.of(bucket, ""))).isEmpty();
        }
    }

    @Test
    void multipartUploadCountsInitiatePartsAndComplete() throws IOException {
        try (ObjectStore store = new S3ObjectStore(TestStores.s3Config().withPartSize(5 * 1024 * 1024, 2))) {
            String bucket = TestStores.uniqueBucket("mpu");
            store.createBucket(bucket);
            byte[] chunk = new byte[1024 * 1024];
            StoreCallCounts upload = measured(store, () -> {
                try (UploadStream out = store.create(ObjectKey.of(bucket, "big"), PutOptions.defaults())) {
                    for (int i = 0; i < 12; i++) {
                        out.write(chunk);
                    }
                }
            });
            assertThat(upload.byType()).isEqualTo(Map.of(CallType.MULTIPART_INITIATE, 1L,
                    CallType.MULTIPART_PART, 3L, CallType.MULTIPART_COMPLETE, 1L));
            assertThat(upload.bytesReceived()).isGreaterThanOrEqualTo(12L * 1024 * 1024);
        }
    }

    private static void fill(String bucket, List<String> keys) throws IOException {
        Map<String, byte[]> objects = new java.util.LinkedHashMap<>();
        keys.forEach(k -> objects.put(k, new byte[] {1}));
        SwiftBulkLoader.load(TestStores.local(), bucket, objects);
    }

    private static List<String> names(ObjectStore store, ListRequest request) throws IOException {
        List<String> names = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(request)) {
            while (it.hasNext()) {
                names.add(it.next().name());
            }
        }
        return names;
    }
}
