package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.RetryingObjectStore;
import io.stork.store.StoreApi;
import io.stork.store.StoreIterator;
import io.stork.store.UnsupportedStoreOperationException;
import io.stork.store.UploadStream;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.swift.SwiftObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Commit points, aborts, conditional creates, and objects shared by the two APIs. */
class UploadCommitAndAbortIT {

    private static final int MIB = 1024 * 1024;

    private static ObjectStore streamingStore(StoreApi api) {
        // Small buffers so that a few MiB exercise the multipart / chunked paths.
        ObjectStore raw = api == StoreApi.S3 ? new S3ObjectStore(TestStores.s3Config().withPartSize(5 * MIB, 2))
                : new SwiftObjectStore(TestStores.swiftConfig().withUploadBuffers(256 * 1024, 2));
        return new RetryingObjectStore(raw, TestStores.FAST_RETRIES);
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void nothingIsVisibleBeforeCloseAndAnAbortLeavesNothingBehind(StoreApi api) throws IOException {
        try (ObjectStore store = streamingStore(api)) {
            String bucket = TestStores.uniqueBucket("abort-" + api.id());
            store.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "aborted/object");
            UploadStream out = store.create(key, PutOptions.defaults());
            byte[] chunk = ObjectStoreOperationsIT.randomBytes(MIB, 9);
            for (int i = 0; i < 12; i++) {
                out.write(chunk);
            }
            // Parts or chunks are on the wire, but nothing is committed yet.
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);
            out.abort();
            assertThatThrownBy(() -> out.write(chunk)).isInstanceOf(IOException.class).hasMessageContaining("aborted");
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);
            assertThat(keys(store, bucket)).isEmpty();
            // s3api keeps multipart parts in "<bucket>+segments": an aborted upload must leave none there.
            assertThat(keys(TestStores.openRaw(StoreApi.SWIFT), bucket + "+segments")).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void aWriterThatFailsMidStreamLeavesNoObject(StoreApi api) throws IOException {
        try (ObjectStore store = streamingStore(api)) {
            String bucket = TestStores.uniqueBucket("fail-" + api.id());
            store.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "failed/object");
            try (UploadStream out = store.create(key, PutOptions.defaults())) {
                out.write(new byte[7 * MIB]);
                throw new IllegalStateException("task failed while writing");
            } catch (IllegalStateException expected) {
                // try-with-resources closed the stream: a writer that fails must abort, not close.
            }
            assertThat(store.head(key).length()).as("closing commits what was written").isEqualTo(7 * MIB);

            ObjectKey second = ObjectKey.of(bucket, "failed/aborted");
            UploadStream out = store.create(second, PutOptions.defaults());
            try {
                out.write(new byte[7 * MIB]);
                throw new IllegalStateException("task failed while writing");
            } catch (IllegalStateException expected) {
                out.abort();
            }
            assertThatThrownBy(() -> store.head(second)).isInstanceOf(ObjectNotFoundException.class);
        }
    }

    @Test
    void conditionalCreateThroughSwiftHonoursIfNoneMatch() throws IOException {
        try (ObjectStore store = TestStores.open(StoreApi.SWIFT)) {
            String bucket = TestStores.uniqueBucket("cond-swift");
            store.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "manifest");
            PutOptions once = PutOptions.defaults().withIfNotExists();
            store.put(key, PutBody.of("first".getBytes()), once);
            assertThatThrownBy(() -> store.put(key, PutBody.of("second".getBytes()), once))
                    .isInstanceOf(ObjectExistsException.class).hasMessageContaining("already exists")
                    .hasMessageContaining("412");
            assertThat(ObjectStoreOperationsIT.readAll(store.get(key, ByteRange.all()))).isEqualTo("first".getBytes());

            ObjectKey streamed = ObjectKey.of(bucket, "streamed-manifest");
            try (UploadStream out = store.create(streamed, once)) {
                out.write(new byte[3 * MIB]);
            }
            UploadStream again = store.create(streamed, once);
            again.write(new byte[3 * MIB]);
            assertThatThrownBy(again::close).isInstanceOf(ObjectExistsException.class);
            assertThat(store.head(streamed).length()).isEqualTo(3 * MIB);
        }
    }

    @Test
    void conditionalCreateThroughS3IsRefusedClearlyForSinglePutsAndHonouredOnMultipartCompletion() throws IOException {
        try (ObjectStore store = streamingStore(StoreApi.S3)) {
            String bucket = TestStores.uniqueBucket("cond-s3");
            store.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "manifest");
            PutOptions once = PutOptions.defaults().withIfNotExists();
            assertThatThrownBy(() -> store.put(key, PutBody.of("first".getBytes()), once))
                    .isInstanceOf(UnsupportedStoreOperationException.class)
                    .hasMessageContaining("not supported").hasMessageContaining("501");
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);

            ObjectKey streamed = ObjectKey.of(bucket, "streamed-manifest");
            try (UploadStream out = store.create(streamed, once)) {
                out.write(new byte[6 * MIB]);
            }
            UploadStream again = store.create(streamed, once);
            again.write(new byte[6 * MIB]);
            assertThatThrownBy(again::close).isInstanceOf(ObjectExistsException.class);
            assertThat(store.head(streamed).length()).isEqualTo(6 * MIB);
        }
    }

    @Test
    void objectsWrittenThroughOneApiReadBackThroughTheOther() throws IOException {
        try (ObjectStore s3 = streamingStore(StoreApi.S3); ObjectStore swift = streamingStore(StoreApi.SWIFT)) {
            String bucket = TestStores.uniqueBucket("cross");
            s3.createBucket(bucket);
            byte[] small = ObjectStoreOperationsIT.randomBytes(10_000, 4);
            byte[] large = ObjectStoreOperationsIT.randomBytes(11 * MIB + 3, 5);
            PutOptions meta = PutOptions.defaults().withUserMetadata(Map.of("writer", "s3"));

            s3.put(ObjectKey.of(bucket, "from-s3/small ü"), PutBody.of(small), meta);
            try (UploadStream out = s3.create(ObjectKey.of(bucket, "from-s3/multipart"), meta)) {
                out.write(large);
            }
            swift.put(ObjectKey.of(bucket, "from-swift/small ü"), PutBody.of(small),
                    PutOptions.defaults().withUserMetadata(Map.of("writer", "swift")));
            try (UploadStream out = swift.create(ObjectKey.of(bucket, "from-swift/chunked"), PutOptions.defaults())) {
                out.write(large);
            }

            var viaSwift = swift.get(ObjectKey.of(bucket, "from-s3/small ü"), ByteRange.all());
            assertThat(viaSwift.info().userMetadata()).containsEntry("writer", "s3");
            assertThat(ObjectStoreOperationsIT.readAll(viaSwift)).isEqualTo(small);
            var multipart = swift.get(ObjectKey.of(bucket, "from-s3/multipart"), ByteRange.all());
            assertThat(multipart.info().length()).isEqualTo(large.length);
            assertThat(ObjectStoreOperationsIT.readAll(multipart)).isEqualTo(large);

            var viaS3 = s3.get(ObjectKey.of(bucket, "from-swift/small ü"), ByteRange.all());
            assertThat(viaS3.info().userMetadata()).containsEntry("writer", "swift");
            assertThat(ObjectStoreOperationsIT.readAll(viaS3)).isEqualTo(small);
            assertThat(ObjectStoreOperationsIT.readAll(s3.get(ObjectKey.of(bucket, "from-swift/chunked"),
                    ByteRange.of(5 * MIB, 100)))).isEqualTo(java.util.Arrays.copyOfRange(large, 5 * MIB, 5 * MIB + 100));
            assertThat(keys(s3, bucket)).containsExactlyInAnyOrder("from-s3/small ü", "from-s3/multipart",
                    "from-swift/small ü", "from-swift/chunked");
            assertThat(keys(swift, bucket)).containsExactlyInAnyOrderElementsOf(keys(s3, bucket));
        }
    }

    static List<String> keys(ObjectStore store, String bucket) throws IOException {
        List<String> names = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, ""))) {
            while (it.hasNext()) {
                names.add(it.next().name());
            }
        } catch (io.stork.store.BucketNotFoundException e) {
            return names;
        }
        return names;
    }
}
