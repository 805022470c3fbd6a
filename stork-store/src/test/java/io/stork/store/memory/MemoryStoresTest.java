package io.stork.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.BucketNotFoundException;
import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ListRequest;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.RetryPolicy;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreApi;
import io.stork.store.StoreFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The memory API as every user opens a store: through StoreFactory, one shared store per bucket. */
class MemoryStoresTest {

    private static final byte[] HELLO = "hello".getBytes(StandardCharsets.UTF_8);

    @AfterEach
    void wipe() {
        MemoryStores.wipe();
    }

    private static ObjectStore open(String bucket) {
        return StoreFactory.open(new MemoryStoreConfig(bucket), RetryPolicy.DEFAULT);
    }

    @Test
    void twoOpensOfABucketShareObjectsAndCallCountsAndOtherBucketsAreApart() throws IOException {
        ObjectKey key = ObjectKey.of("unit-shared", "a/b.txt");
        try (ObjectStore writer = open("unit-shared"); ObjectStore reader = open("unit-shared");
             ObjectStore other = open("unit-other")) {
            assertThat(writer.description().api()).isEqualTo(StoreApi.MEMORY);
            StatisticsSnapshot before = reader.statistics().snapshot();
            writer.put(key, PutBody.of(HELLO), PutOptions.defaults());
            try (ObjectStream in = reader.get(key, ByteRange.all())) {
                assertThat(in.readAllBytes()).isEqualTo(HELLO);
            }
            assertThat(reader.statistics().snapshot().minus(before).calls())
                    .as("one store's count, whichever handle made the call")
                    .isEqualTo(Map.of(CallType.PUT, 1L, CallType.GET, 1L));
            assertThatThrownBy(() -> other.head(key)).isInstanceOf(BucketNotFoundException.class);
        }
    }

    @Test
    void createIfAbsentIsHonouredAtomically() throws IOException {
        ObjectKey key = ObjectKey.of("unit-claim", "claim");
        try (ObjectStore store = open("unit-claim")) {
            assertThat(store.supportsConditionalCreate()).isTrue();
            assertThat(store.conditionalCreateIsAtomic()).isTrue();
            store.put(key, PutBody.of(HELLO), PutOptions.defaults().withIfNotExists());
            assertThatThrownBy(() -> store.put(key, PutBody.of(HELLO), PutOptions.defaults().withIfNotExists()))
                    .isInstanceOf(ObjectExistsException.class);
        }
    }

    @Test
    void wipeEmptiesEveryBucketAndLeavesEachStoreItsOwnBucket() throws IOException {
        ObjectKey key = ObjectKey.of("unit-wipe", "x");
        try (ObjectStore store = open("unit-wipe")) {
            store.put(key, PutBody.of(HELLO), PutOptions.defaults());
            store.createBucket("unit-extra");
            MemoryStores.wipe();
            assertThatThrownBy(() -> store.head(key)).isInstanceOf(ObjectNotFoundException.class);
            assertThat(store.list(ListRequest.of("unit-wipe", "")).hasNext()).isFalse();
            assertThatThrownBy(() -> store.head(ObjectKey.of("unit-extra", "x")))
                    .isInstanceOf(BucketNotFoundException.class);

            store.deleteBucket("unit-wipe");
            MemoryStores.wipe();
            store.put(key, PutBody.of(HELLO), PutOptions.defaults());
            assertThat(store.head(key).length()).isEqualTo(HELLO.length);
        }
    }
}
