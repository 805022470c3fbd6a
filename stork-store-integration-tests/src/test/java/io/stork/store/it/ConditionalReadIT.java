package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.StoreApi;
import io.stork.store.UploadStream;
import io.stork.store.s3.S3ObjectStore;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Conditional GETs against the real store, both APIs: revalidation (If-None-Match, 304 without a body)
 * and reads pinned to a version (If-Match, 412 once the object was replaced), for a simple object and
 * one uploaded in parts (S3 multipart), whose ETag is not an MD5.
 */
class ConditionalReadIT {

    private static final int MIB = 1024 * 1024;

    private static ObjectStore open(StoreApi api) {
        return api == StoreApi.S3 ? new io.stork.store.RetryingObjectStore(
                new S3ObjectStore(TestStores.s3Config().withPartSize(5 * MIB, 2)), TestStores.FAST_RETRIES)
                : TestStores.open(api);
    }

    private static byte[] bytes(int n, long seed) {
        byte[] data = new byte[n];
        new Random(seed).nextBytes(data);
        return data;
    }

    private static ObjectInfo upload(ObjectStore store, ObjectKey key, byte[] data) throws IOException {
        try (UploadStream out = store.create(key, PutOptions.defaults())) {
            out.write(data, 0, data.length);
            out.close();
            return out.result();
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void revalidationAnswers304AndPinnedReadsFailOnceTheObjectIsReplaced(StoreApi api) throws Exception {
        try (ObjectStore store = open(api)) {
            String bucket = TestStores.uniqueBucket("cond-" + api.id());
            store.createBucket(bucket);
            for (int size : new int[] {1000, 11 * MIB}) {
                ObjectKey key = ObjectKey.of(bucket, "object-" + size);
                ObjectInfo first = upload(store, key, bytes(size, 1));
                assertThat(first.etag()).isNotBlank();

                AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
                assertThatThrownBy(() -> store.get(key, ByteRange.all(), ReadCondition.ifNoneMatch(first.etag())))
                        .as("unchanged, size " + size).isInstanceOf(NotModifiedException.class);
                try (ObjectStream pinned = store.get(key, ByteRange.of(10, 100), ReadCondition.ifMatch(first.etag()))) {
                    assertThat(pinned.readAllBytes()).hasSize(100);
                    assertThat(pinned.info().etag()).isEqualTo(first.etag());
                }
                assertThat(window.counts().byType()).as("one GET each, the 304 included")
                        .containsEntry(CallType.GET, 2L);
                assertThat(window.counts().bytesSent()).as("the 304 has no body").isLessThan(1000);

                store.put(key, PutBody.of(bytes(size == 1000 ? 1000 : 2000, 2)), PutOptions.defaults()); // replaced
                assertThatThrownBy(() -> store.get(key, ByteRange.all(), ReadCondition.ifMatch(first.etag())))
                        .as("replaced, size " + size).isInstanceOf(ObjectChangedException.class)
                        .hasMessageContaining("not the version the read asked for").hasMessageContaining("412");
                try (ObjectStream changed = store.get(key, ByteRange.all(), ReadCondition.ifNoneMatch(first.etag()))) {
                    assertThat(changed.info().etag()).isNotEqualTo(first.etag());
                }
            }
        }
    }
}
