package io.stork.store.memory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory stores of this JVM, one per bucket name: what the {@link io.stork.store.StoreApi#MEMORY}
 * API ({@code fs.stork.api=memory}) opens. A test and development backend, not a place for data: nothing
 * outlives the JVM and nothing bounds the memory it takes.
 *
 * <p>Shared by bucket name because a bucket has many clients in one JVM (Spark's driver and its local-mode
 * tasks, file system instances outside Hadoop's cache) that must see the same objects, as they would on a
 * real store; its statistics then count every client's calls, as a store's access log would. Tests empty
 * the stores with {@link #wipe()} rather than replace them, since clients keep the store they opened.
 */
public final class MemoryStores {

    private static final Map<String, InMemoryObjectStore> STORES = new ConcurrentHashMap<>();

    private MemoryStores() {
    }

    /**
     * The bucket's store, made on first use with the bucket in it, as if an administrator had created it:
     * no call is counted for that.
     */
    public static InMemoryObjectStore shared(String bucket) {
        return STORES.computeIfAbsent(bucket, name -> {
            InMemoryObjectStore store = new InMemoryObjectStore();
            store.reset(name);
            return store;
        });
    }

    /**
     * Deletes every object of every shared store and leaves each with just its own bucket, empty. The stores
     * and their call counts stay (count a test's calls as a difference of snapshots).
     */
    public static void wipe() {
        STORES.forEach((bucket, store) -> store.reset(bucket));
    }
}
