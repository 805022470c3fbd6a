package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.localstore.StoreCallCounts;
import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.StoreApi;
import io.stork.store.UploadStream;
import io.stork.store.swift.SwiftObjectStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Streamed uploads over Swift as static large objects (a segment size set): what the store holds, what
 * each step costs at the store's access log, and that nothing stays behind an abort, a refused commit or
 * a delete. Segments of 1 MiB so that a few MiB make several; objects past 5 GiB are the
 * {@code LargeStreamingUploadIT} campaign's ({@code -Dstork.test.largeObjectMiB=6144}).
 */
class SwiftSegmentedUploadIT {

    private static final int MIB = 1024 * 1024;
    private static SwiftObjectStore segmenting() {
        return new SwiftObjectStore(TestStores.swiftConfig().withUploadBuffers(256 * 1024, 2).withSegmentSize(MIB));
    }

    private static ObjectInfo upload(ObjectStore store, ObjectKey key, byte[] data, PutOptions options)
            throws IOException {
        UploadStream out = store.create(key, options);
        for (int at = 0; at < data.length; at += 100_003) { // slices that never meet a buffer's boundary
            out.write(data, at, Math.min(100_003, data.length - at));
        }
        out.close();
        return out.result();
    }

    @Test
    void aStreamPastTheFirstBufferBecomesSegmentsAndAManifestThatReadsBackWhole() throws IOException {
        try (SwiftObjectStore store = segmenting(); ObjectStore s3 = TestStores.open(StoreApi.S3)) {
            String bucket = TestStores.uniqueBucket("slo");
            store.createBucket(bucket);
            byte[] data = ObjectStoreOperationsIT.randomBytes(5 * MIB + 12_345, 21);
            ObjectKey key = ObjectKey.of(bucket, "dir/large object ü.bin");
            ObjectInfo[] committed = new ObjectInfo[1];
            PutOptions options = PutOptions.defaults().withUserMetadata(Map.of("origin", "stork"));

            StoreCallCounts first = CallCountIT.measured(store, () -> committed[0] = upload(store, key, data, options));
            // The segment container once per client, six segments, one manifest.
            assertThat(first.byType()).isEqualTo(Map.of(CallType.BUCKET_CREATE, 1L, CallType.PUT, 7L));
            List<String> segments = UploadCommitAndAbortIT.keys(store, bucket + "_segments");
            assertThat(segments).hasSize(6).allMatch(s -> s.matches("dir/large object ü\\.bin/[0-9a-f-]{36}/0000000[0-5]"));
            assertThat(UploadCommitAndAbortIT.keys(store, bucket)).containsExactly(key.key());

            ObjectInfo head = store.head(key);
            assertThat(head.length()).isEqualTo(data.length);
            assertThat(head.etag()).as("the manifest PUT's ETag is the one reads see").isEqualTo(committed[0].etag());
            assertThat(head.userMetadata()).containsEntry("origin", "stork");
            try (ObjectStream in = store.get(key, ByteRange.all())) {
                assertThat(ObjectStoreOperationsIT.readAll(in)).isEqualTo(data);
            }
            try (ObjectStream in = s3.get(key, ByteRange.all())) {
                assertThat(ObjectStoreOperationsIT.readAll(in)).as("through the S3 API").isEqualTo(data);
            }
            // A range across a segment boundary, pinned to the version as manifests pin parts.
            ByteRange across = ByteRange.of(MIB - 10, 30);
            try (ObjectStream in = store.get(key, across, ReadCondition.ifMatch(committed[0].etag()))) {
                assertThat(ObjectStoreOperationsIT.readAll(in)).isEqualTo(Arrays.copyOfRange(data, MIB - 10, MIB + 20));
            }

            // A second upload of this client: no container PUT; an exact multiple of the segment size.
            byte[] exact = ObjectStoreOperationsIT.randomBytes(3 * MIB, 22);
            StoreCallCounts second = CallCountIT.measured(store, () -> upload(store, ObjectKey.of(bucket, "exact"), exact,
                    PutOptions.defaults()));
            assertThat(second.byType()).isEqualTo(Map.of(CallType.PUT, 4L));
            try (ObjectStream in = store.get(ObjectKey.of(bucket, "exact"), ByteRange.all())) {
                assertThat(ObjectStoreOperationsIT.readAll(in)).isEqualTo(exact);
            }

            // Within the first buffer: one PUT, no segment.
            byte[] small = ObjectStoreOperationsIT.randomBytes(200_000, 23);
            StoreCallCounts one = CallCountIT.measured(store, () -> upload(store, ObjectKey.of(bucket, "small"), small,
                    PutOptions.defaults()));
            assertThat(one.byType()).isEqualTo(Map.of(CallType.PUT, 1L));
            assertThat(UploadCommitAndAbortIT.keys(store, bucket + "_segments")).hasSize(9);

            // Deleting a segmented object deletes its segments, in one call.
            StoreCallCounts deleted = CallCountIT.measured(store, () -> store.delete(key));
            assertThat(deleted.byType()).isEqualTo(Map.of(CallType.DELETE, 1L));
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);
            assertThat(UploadCommitAndAbortIT.keys(store, bucket + "_segments")).hasSize(3)
                    .allMatch(s -> s.startsWith("exact/"));
            // A plain object: the manifest delete is refused, a plain DELETE follows.
            StoreCallCounts plain = CallCountIT.measured(store, () -> store.delete(ObjectKey.of(bucket, "small")));
            assertThat(plain.byType()).isEqualTo(Map.of(CallType.DELETE, 2L));
            assertThatThrownBy(() -> store.head(ObjectKey.of(bucket, "small"))).isInstanceOf(ObjectNotFoundException.class);
            store.delete(ObjectKey.of(bucket, "never-written"));
        }
    }

    @Test
    void aBulkDeleteSweepsTheSegmentsOfTheKeysItDeleted() throws IOException {
        try (SwiftObjectStore store = segmenting()) {
            String bucket = TestStores.uniqueBucket("slo-bulk");
            store.createBucket(bucket);
            byte[] data = ObjectStoreOperationsIT.randomBytes(2 * MIB + 1, 24);
            upload(store, ObjectKey.of(bucket, "t/part-0"), data, PutOptions.defaults());
            upload(store, ObjectKey.of(bucket, "t/part-1"), data, PutOptions.defaults());
            upload(store, ObjectKey.of(bucket, "t/part-10"), data, PutOptions.defaults());
            assertThat(UploadCommitAndAbortIT.keys(store, bucket + "_segments")).hasSize(9);

            StoreCallCounts bulk = CallCountIT.measured(store, () -> assertThat(
                    store.deleteAll(bucket, List.of("t/part-0", "t/part-1")).allDeleted()).isTrue());
            // The bulk delete, one LIST of the segments under the keys' common prefix, one bulk delete of them.
            assertThat(bulk.byType()).isEqualTo(Map.of(CallType.BULK_DELETE, 2L, CallType.LIST, 1L));
            assertThat(UploadCommitAndAbortIT.keys(store, bucket + "_segments")).hasSize(3)
                    .allMatch(s -> s.startsWith("t/part-10/"));
            try (ObjectStream in = store.get(ObjectKey.of(bucket, "t/part-10"), ByteRange.all())) {
                assertThat(ObjectStoreOperationsIT.readAll(in)).as("the other key's segments untouched").isEqualTo(data);
            }
        }
    }

    @Test
    void anAbortOrARefusedCommitLeavesNeitherObjectNorSegments() throws IOException {
        try (SwiftObjectStore store = segmenting()) {
            String bucket = TestStores.uniqueBucket("slo-abort");
            store.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "aborted");
            UploadStream out = store.create(key, PutOptions.defaults());
            out.write(ObjectStoreOperationsIT.randomBytes(2 * MIB + MIB / 2, 25)); // two segments and a half
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);
            out.abort();
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);
            assertThat(UploadCommitAndAbortIT.keys(store, bucket + "_segments")).isEmpty();

            // Create-if-absent: checked by the manifest PUT, the commit point; the loser's segments go.
            ObjectKey manifest = ObjectKey.of(bucket, "once");
            PutOptions once = PutOptions.defaults().withIfNotExists();
            byte[] winner = ObjectStoreOperationsIT.randomBytes(2 * MIB + 7, 26);
            upload(store, manifest, winner, once);
            assertThatThrownBy(() -> upload(store, manifest, ObjectStoreOperationsIT.randomBytes(3 * MIB, 27), once))
                    .isInstanceOf(ObjectExistsException.class);
            assertThat(UploadCommitAndAbortIT.keys(store, bucket + "_segments")).hasSize(3);
            try (ObjectStream in = store.get(manifest, ByteRange.all())) {
                assertThat(ObjectStoreOperationsIT.readAll(in)).isEqualTo(winner);
            }
        }
    }
}
