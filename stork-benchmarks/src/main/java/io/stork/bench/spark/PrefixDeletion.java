package io.stork.bench.spark;

import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectStore;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Deletes every object under a prefix (list, then bulk deletes of up to 1,000 keys). */
final class PrefixDeletion {

    private PrefixDeletion() {
    }

    static void deleteAll(ObjectStore store, String bucket, String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, prefix))) {
            while (it.hasNext()) {
                keys.add(it.next().name());
            }
        }
        for (int from = 0; from < keys.size(); from += 1000) {
            store.deleteAll(bucket, keys.subList(from, Math.min(keys.size(), from + 1000)));
        }
    }
}
