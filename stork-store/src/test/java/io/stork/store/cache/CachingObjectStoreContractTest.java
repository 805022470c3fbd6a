package io.stork.store.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.contract.AbstractObjectStoreContractTest;
import io.stork.store.memory.InMemoryObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The cache decorator passes the store contract (small blocks, so reads cross them). */
class CachingObjectStoreContractTest extends AbstractObjectStoreContractTest {

    @Override
    protected ObjectStore openStore() throws IOException {
        return new CachingObjectStore(new InMemoryObjectStore(),
                new BlockCacheSettings(Files.createTempDirectory("stork-cache-contract"), 4096, 1 << 20));
    }

    /**
     * The one place the decorator answers otherwise, on purpose: a read pinned to a version the cache
     * holds gets that version's bytes (exactly the bytes it asked for) even after the store's object was
     * replaced, where the store would refuse with 412. Not cached, it is the store's 412.
     */
    @Override
    @Test
    protected void conditionalReadsRevalidateAndPinAVersion() throws IOException {
        ObjectStore store = openStore();
        store.createBucket("pin");
        ObjectKey key = ObjectKey.of("pin", "_SUCCESS");
        ObjectInfo first = store.put(key, PutBody.of(bytes("generation 1")), PutOptions.defaults());
        assertThatThrownBy(() -> store.get(key, ByteRange.all(), ReadCondition.ifNoneMatch(first.etag())))
                .isInstanceOf(NotModifiedException.class);
        assertThat(read(store.get(key, ByteRange.of(0, 10), ReadCondition.ifMatch(first.etag()))))
                .isEqualTo(bytes("generation"));
        ((CachingObjectStore) store).flush();
        store.put(key, PutBody.of(bytes("generation 2")), PutOptions.defaults());
        assertThat(read(store.get(key, ByteRange.of(0, 10), ReadCondition.ifMatch(first.etag()))))
                .as("the pinned version, from the cache").isEqualTo(bytes("generation"));
        assertThatThrownBy(() -> store.get(key, ByteRange.of(10, 2), ReadCondition.ifMatch(first.etag())))
                .as("bytes of it never cached").isInstanceOf(ObjectChangedException.class);
        assertThat(read(store.get(key, ByteRange.all(), ReadCondition.ifNoneMatch(first.etag()))))
                .isEqualTo(bytes("generation 2"));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] read(ObjectStream stream) throws IOException {
        try (stream) {
            return stream.readAllBytes();
        }
    }
}
