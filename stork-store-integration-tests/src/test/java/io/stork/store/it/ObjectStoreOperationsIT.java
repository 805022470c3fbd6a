package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.DeleteResult;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.RangeNotSatisfiableException;
import io.stork.store.StoreApi;
import io.stork.store.StoreIterator;
import io.stork.store.UploadStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every operation of the client layer, against the real store, through both APIs. */
class ObjectStoreOperationsIT {

    private static final Map<StoreApi, ObjectStore> STORES = new HashMap<>();
    private static final Map<StoreApi, String> BUCKETS = new HashMap<>();

    @BeforeAll
    static void openStores() throws IOException {
        for (StoreApi api : StoreApi.wire()) {
            ObjectStore store = TestStores.open(api);
            String bucket = TestStores.uniqueBucket("ops-" + api.id());
            store.createBucket(bucket);
            STORES.put(api, store);
            BUCKETS.put(api, bucket);
        }
    }

    @AfterAll
    static void closeStores() throws IOException {
        for (ObjectStore store : STORES.values()) {
            store.close();
        }
    }

    static byte[] randomBytes(int n, long seed) {
        byte[] data = new byte[n];
        new Random(seed).nextBytes(data);
        return data;
    }

    static byte[] readAll(ObjectStream stream) throws IOException {
        try (stream) {
            return stream.readAllBytes();
        }
    }

    private static ObjectKey key(StoreApi api, String name) {
        return ObjectKey.of(BUCKETS.get(api), name);
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void putThenGetReturnsBytesAndMetadataFromTheGetItself(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        byte[] data = randomBytes(100_000, 1);
        ObjectKey key = key(api, "plain/object.bin");
        ObjectInfo put = store.put(key, PutBody.of(data),
                PutOptions.defaults().withContentType("application/x-test").withUserMetadata(Map.of("origin", "stork")));
        assertThat(put.length()).isEqualTo(data.length);
        assertThat(put.etag()).isNotBlank();

        ObjectStream stream = store.get(key, ByteRange.all());
        assertThat(stream.info().length()).isEqualTo(data.length);
        assertThat(stream.info().etag()).isEqualTo(put.etag());
        assertThat(stream.info().lastModified()).isNotNull();
        assertThat(stream.info().userMetadata()).containsEntry("origin", "stork");
        assertThat(readAll(stream)).isEqualTo(data);

        ObjectInfo head = store.head(key);
        assertThat(head.length()).isEqualTo(data.length);
        assertThat(head.etag()).isEqualTo(put.etag());
        assertThat(head.userMetadata()).containsEntry("origin", "stork");
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void zeroByteObjectsRoundTrip(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        ObjectKey key = key(api, "empty/zero");
        store.put(key, PutBody.of(new byte[0]), PutOptions.defaults());
        assertThat(store.head(key).length()).isZero();
        ObjectStream stream = store.get(key, ByteRange.all());
        assertThat(stream.info().length()).isZero();
        assertThat(readAll(stream)).isEmpty();

        ObjectKey streamed = key(api, "empty/streamed");
        try (UploadStream out = store.create(streamed, PutOptions.defaults())) {
            out.flush();
        }
        assertThat(store.head(streamed).length()).isZero();
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void awkwardKeysRoundTripThroughEveryOperation(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        List<String> names = List.of("with space/a b.txt", "unicode/ünï-çødé-日本語.txt", "percent/100%.txt",
                "plus/a+b.txt", "tilde/~home.txt", "equals/k=v/x=1.txt", "mixed/a b+c%20d~e=f",
                "deep/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/leaf.txt", "dots/..hidden.txt", "star/*?&#.txt");
        for (String name : names) {
            ObjectKey key = key(api, "awkward/" + name);
            byte[] data = name.getBytes(StandardCharsets.UTF_8);
            store.put(key, PutBody.of(data), PutOptions.defaults());
            assertThat(readAll(store.get(key, ByteRange.all()))).as(name).isEqualTo(data);
            assertThat(store.head(key).length()).as(name).isEqualTo(data.length);
        }
        List<String> listed = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(BUCKETS.get(api), "awkward/"))) {
            while (it.hasNext()) {
                listed.add(it.next().name().substring("awkward/".length()));
            }
        }
        assertThat(listed).containsExactlyInAnyOrderElementsOf(names);
        for (String name : names) {
            ObjectKey key = key(api, "awkward/" + name);
            store.delete(key);
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void rangeReadsAtTheEdges(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        byte[] data = randomBytes(1000, 2);
        ObjectKey key = key(api, "range/object");
        store.put(key, PutBody.of(data), PutOptions.defaults());

        ObjectStream first = store.get(key, ByteRange.of(0, 1));
        assertThat(first.info().length()).isEqualTo(1000);
        assertThat(first.rangeLength()).isEqualTo(1);
        assertThat(readAll(first)).containsExactly(data[0]);

        ObjectStream last = store.get(key, ByteRange.of(999, 1));
        assertThat(last.rangeStart()).isEqualTo(999);
        assertThat(last.info().length()).isEqualTo(1000);
        assertThat(readAll(last)).containsExactly(data[999]);

        ObjectStream middle = store.get(key, ByteRange.of(100, 250));
        assertThat(readAll(middle)).isEqualTo(java.util.Arrays.copyOfRange(data, 100, 350));

        ObjectStream tail = store.get(key, ByteRange.from(900));
        assertThat(readAll(tail)).isEqualTo(java.util.Arrays.copyOfRange(data, 900, 1000));

        ObjectStream overlapping = store.get(key, ByteRange.of(990, 100));
        assertThat(overlapping.rangeLength()).isEqualTo(10);
        assertThat(readAll(overlapping)).isEqualTo(java.util.Arrays.copyOfRange(data, 990, 1000));

        assertThatThrownBy(() -> store.get(key, ByteRange.of(1000, 1)))
                .isInstanceOf(RangeNotSatisfiableException.class)
                .hasMessageContaining(key.key()).hasMessageContaining("416");
        assertThatThrownBy(() -> store.get(key, ByteRange.from(5000)))
                .isInstanceOf(RangeNotSatisfiableException.class);
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void missingObjectsFailWithANamedError(StoreApi api) {
        ObjectStore store = STORES.get(api);
        ObjectKey key = key(api, "missing/nothing-here");
        assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("HEAD").hasMessageContaining(BUCKETS.get(api) + "/missing/nothing-here")
                .hasMessageContaining("not found");
        assertThatThrownBy(() -> store.get(key, ByteRange.all())).isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("GET");
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void deleteIsIdempotentAndBulkDeleteRemovesEverything(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        ObjectKey single = key(api, "delete/single");
        store.put(single, PutBody.of(new byte[] {1}), PutOptions.defaults());
        store.delete(single);
        store.delete(single);
        assertThatThrownBy(() -> store.head(single)).isInstanceOf(ObjectNotFoundException.class);

        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String name = "bulk/k " + i + (i % 3 == 0 ? "+ü" : "");
            keys.add(name);
            store.put(key(api, name), PutBody.of(new byte[] {(byte) i}), PutOptions.defaults());
        }
        keys.add("bulk/never-existed");
        DeleteResult result = store.deleteAll(BUCKETS.get(api), keys);
        assertThat(result.allDeleted()).as(result.failures().toString()).isTrue();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(BUCKETS.get(api), "bulk/"))) {
            assertThat(it.hasNext()).isFalse();
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void serverSideCopyCopiesBytesAndMetadata(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        byte[] data = randomBytes(50_000, 3);
        ObjectKey source = key(api, "copy/source file");
        ObjectKey target = key(api, "copy/target ü");
        store.put(source, PutBody.of(data), PutOptions.defaults().withUserMetadata(Map.of("kept", "yes")));
        store.copy(source, target);
        ObjectStream copied = store.get(target, ByteRange.all());
        assertThat(copied.info().userMetadata()).containsEntry("kept", "yes");
        assertThat(readAll(copied)).isEqualTo(data);
        assertThatThrownBy(() -> store.copy(key(api, "copy/absent"), key(api, "copy/x")))
                .isInstanceOf(ObjectNotFoundException.class);
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void streamingUploadsOfEverySizeReadBack(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        for (int size : new int[] {1, 64 * 1024 + 7, 3 * 1024 * 1024 + 11}) {
            byte[] data = randomBytes(size, size);
            ObjectKey key = key(api, "streamed/" + size);
            UploadStream out = store.create(key, PutOptions.defaults().withUserMetadata(Map.of("size", "" + size)));
            for (int offset = 0; offset < size; offset += 10_000) {
                out.write(data, offset, Math.min(10_000, size - offset));
            }
            out.close();
            assertThat(out.result().length()).isEqualTo(size);
            ObjectStream back = store.get(key, ByteRange.all());
            assertThat(back.info().userMetadata()).containsEntry("size", "" + size);
            assertThat(readAll(back)).isEqualTo(data);
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void listingIsLazyAndRollsUpPrefixes(StoreApi api) throws IOException {
        ObjectStore store = STORES.get(api);
        String bucket = BUCKETS.get(api);
        for (String name : List.of("tree/a/1", "tree/a/2", "tree/b/1", "tree/c", "tree/d/e/f")) {
            store.put(ObjectKey.of(bucket, name), PutBody.of(new byte[] {7}), PutOptions.defaults());
        }
        List<String> entries = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, "tree/").withDelimiter("/").withPageSize(2))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                entries.add((entry instanceof ListEntry.CommonPrefix ? "P:" : "O:") + entry.name());
            }
        }
        assertThat(entries).containsExactly("P:tree/a/", "P:tree/b/", "O:tree/c", "P:tree/d/");
        List<String> after = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, "tree/").withStartAfter("tree/b/1"))) {
            while (it.hasNext()) {
                after.add(it.next().name());
            }
        }
        assertThat(after).containsExactly("tree/c", "tree/d/e/f");
    }
}
