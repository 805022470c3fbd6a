package io.stork.store.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.DeleteResult;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.RangeNotSatisfiableException;
import io.stork.store.ReadCondition;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreIterator;
import io.stork.store.UploadStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@link ObjectStore} contract, run against every implementation: the in-memory store (stork-store)
 * and the S3 and Swift clients against the real local store (stork-store-integration-tests). What the
 * layers above rely on, stated once: reads return what was written with its metadata from the same call,
 * misses and conflicts are typed, conditions hold, listings page and roll up, and each method counts the
 * calls it makes. Wire-specific facts (exact HTTP calls, multipart) stay in each client's own tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractObjectStoreContractTest {

    private ObjectStore store;
    private String bucket;

    /** A store of the implementation under test; closed after the class. */
    protected abstract ObjectStore openStore() throws IOException;

    @BeforeAll
    void open() throws IOException {
        store = openStore();
        bucket = ("contract-" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase();
        store.createBucket(bucket);
    }

    @AfterAll
    void close() throws IOException {
        if (store != null) {
            store.close();
        }
    }

    private ObjectKey key(String name) {
        return ObjectKey.of(bucket, name);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] read(ObjectStream stream) throws IOException {
        try (stream) {
            return stream.readAllBytes();
        }
    }

    @Test
    void aPutObjectIsReadBackWithItsMetadataFromTheGetItself() throws IOException {
        ObjectKey key = key("put/object.txt");
        ObjectInfo put = store.put(key, PutBody.of(bytes("hello, store")),
                PutOptions.defaults().withUserMetadata(Map.of("origin", "contract")));
        assertThat(put.etag()).isNotBlank().doesNotStartWith("\"");
        try (ObjectStream in = store.get(key, ByteRange.all())) {
            assertThat(in.readAllBytes()).isEqualTo(bytes("hello, store"));
            assertThat(in.info().length()).isEqualTo(12);
            assertThat(in.info().etag()).isEqualTo(put.etag());
            assertThat(in.info().userMetadata()).containsEntry("origin", "contract");
        }
        ObjectInfo head = store.head(key);
        assertThat(head.length()).isEqualTo(12);
        assertThat(head.etag()).isEqualTo(put.etag());
    }

    @Test
    void rangesServeTheirBytesAndAStartPastTheEndIsRefused() throws IOException {
        ObjectKey key = key("ranges/digits");
        store.put(key, PutBody.of(bytes("0123456789")), PutOptions.defaults());
        assertThat(read(store.get(key, ByteRange.of(2, 3)))).isEqualTo(bytes("234"));
        assertThat(read(store.get(key, ByteRange.from(7)))).isEqualTo(bytes("789"));
        try (ObjectStream tail = store.get(key, ByteRange.of(8, 100))) {
            assertThat(tail.readAllBytes()).isEqualTo(bytes("89"));
            assertThat(tail.info().length()).as("the whole object's length").isEqualTo(10);
        }
        assertThatThrownBy(() -> store.get(key, ByteRange.from(10))).isInstanceOf(RangeNotSatisfiableException.class);
    }

    @Test
    void aMissingObjectIsTypedForEveryRead() {
        ObjectKey missing = key("no/such/object");
        assertThatThrownBy(() -> store.get(missing, ByteRange.all())).isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("no/such/object");
        assertThatThrownBy(() -> store.head(missing)).isInstanceOf(ObjectNotFoundException.class);
    }

    @Test
    protected void conditionalReadsRevalidateAndPinAVersion() throws IOException {
        ObjectKey key = key("conditions/_SUCCESS");
        ObjectInfo first = store.put(key, PutBody.of(bytes("generation 1")), PutOptions.defaults());
        assertThatThrownBy(() -> store.get(key, ByteRange.all(), ReadCondition.ifNoneMatch(first.etag())))
                .isInstanceOf(NotModifiedException.class);
        assertThat(read(store.get(key, ByteRange.of(0, 10), ReadCondition.ifMatch(first.etag()))))
                .isEqualTo(bytes("generation"));
        store.put(key, PutBody.of(bytes("generation 2")), PutOptions.defaults());
        assertThatThrownBy(() -> store.get(key, ByteRange.all(), ReadCondition.ifMatch(first.etag())))
                .isInstanceOf(ObjectChangedException.class);
        assertThat(read(store.get(key, ByteRange.all(), ReadCondition.ifNoneMatch(first.etag()))))
                .isEqualTo(bytes("generation 2"));
    }

    @Test
    void aCreateWithoutOverwriteFailsWhereAnObjectExists() throws IOException {
        if (!store.supportsConditionalCreate()) {
            return; // this API cannot (the local store's S3 API answers 501): callers ask before relying on it
        }
        ObjectKey key = key("claims/generation-2");
        store.put(key, PutBody.of(bytes("job-a")), PutOptions.defaults().withIfNotExists());
        assertThatThrownBy(() -> store.put(key, PutBody.of(bytes("job-b")), PutOptions.defaults().withIfNotExists()))
                .isInstanceOf(ObjectExistsException.class);
        assertThat(read(store.get(key, ByteRange.all()))).isEqualTo(bytes("job-a"));
    }

    @Test
    void listingsPageRollUpByDelimiterAndStayInKeyOrder() throws IOException {
        List<String> names = List.of("list/a", "list/b/1", "list/b/2", "list/c", "list/d/e/f", "list/g");
        for (String name : names) {
            store.put(key(name), PutBody.of(bytes(name)), PutOptions.defaults());
        }
        List<String> flat = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, "list/").withPageSize(2))) {
            while (it.hasNext()) {
                flat.add(it.next().name());
            }
        }
        assertThat(flat).containsExactlyElementsOf(names);
        List<String> rolled = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, "list/").withDelimiter("/")
                .withPageSize(2))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                rolled.add(entry.name() + (entry instanceof ListEntry.CommonPrefix ? " (prefix)" : ""));
            }
        }
        assertThat(rolled).containsExactly("list/a", "list/b/ (prefix)", "list/c", "list/d/ (prefix)", "list/g");
    }

    @Test
    void bulkDeleteRemovesEveryKeyAndToleratesMissingOnes() throws IOException {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            keys.add("bulk/" + i);
            store.put(key("bulk/" + i), PutBody.of(bytes("x")), PutOptions.defaults());
        }
        keys.add("bulk/never-written");
        DeleteResult result = store.deleteAll(bucket, keys);
        assertThat(result.allDeleted()).isTrue();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, "bulk/"))) {
            assertThat(it.hasNext()).isFalse();
        }
        store.delete(key("bulk/never-written")); // deleting a missing object is not an error
    }

    @Test
    void aCopyHasTheSourceBytes() throws IOException {
        store.put(key("copy/source"), PutBody.of(bytes("copied")), PutOptions.defaults());
        store.copy(key("copy/source"), key("copy/target"));
        assertThat(read(store.get(key("copy/target"), ByteRange.all()))).isEqualTo(bytes("copied"));
    }

    @Test
    void aStreamingUploadIsVisibleOnlyOnceClosedAndNeverAfterAbort() throws IOException {
        ObjectKey kept = key("stream/kept");
        UploadStream upload = store.create(kept, PutOptions.defaults());
        upload.write(bytes("streamed"));
        assertThatThrownBy(() -> store.head(kept)).as("not visible before close")
                .isInstanceOf(ObjectNotFoundException.class);
        upload.close();
        assertThat(upload.result().length()).isEqualTo(8);
        assertThat(read(store.get(kept, ByteRange.all()))).isEqualTo(bytes("streamed"));

        ObjectKey abandoned = key("stream/abandoned");
        UploadStream aborted = store.create(abandoned, PutOptions.defaults());
        aborted.write(bytes("never"));
        aborted.abort();
        assertThatThrownBy(() -> store.head(abandoned)).isInstanceOf(ObjectNotFoundException.class);
    }

    @Test
    void eachCallIsCountedByType() throws IOException {
        ObjectKey key = key("counted/object");
        StatisticsSnapshot before = store.statistics().snapshot();
        store.put(key, PutBody.of(bytes("counted")), PutOptions.defaults());
        read(store.get(key, ByteRange.all()));
        store.head(key);
        store.delete(key);
        StatisticsSnapshot calls = store.statistics().snapshot().minus(before);
        assertThat(calls.calls(CallType.PUT)).isEqualTo(1);
        assertThat(calls.calls(CallType.GET)).isEqualTo(1);
        assertThat(calls.calls(CallType.HEAD)).isEqualTo(1);
        assertThat(calls.calls(CallType.DELETE)).isEqualTo(1);
    }
}
