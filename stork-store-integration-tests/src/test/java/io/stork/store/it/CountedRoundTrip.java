package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.StoreCallCounts;
import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Steps whose calls are counted at the store's access log (and checked against the client's own counts by
 * {@link CallCountIT#measured}), each step's log entries kept for what a test asserts about all of them
 * (the port or host name every request came through).
 */
final class CountedRoundTrip {

    private CountedRoundTrip() {
    }

    /** The calls the store logged for an action, kept in {@code all}. */
    static StoreCallCounts counted(ObjectStore store, List<AccessLogEntry> all, CallCountIT.IoAction action)
            throws IOException {
        StoreCallCounts counts = CallCountIT.measured(store, action);
        all.addAll(counts.entries());
        return counts;
    }

    /** {@code key} written, read back, listed as the only object under {@code prefix} and deleted: one call each. */
    static void putGetListDelete(ObjectStore store, List<AccessLogEntry> all, ObjectKey key, byte[] data,
                                 String prefix) throws IOException {
        assertThat(counted(store, all, () -> store.put(key, PutBody.of(data), PutOptions.defaults())).byType())
                .isEqualTo(Map.of(CallType.PUT, 1L));
        assertThat(counted(store, all, () -> {
            try (var in = store.get(key, ByteRange.all())) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
        }).byType()).isEqualTo(Map.of(CallType.GET, 1L));
        assertThat(counted(store, all, () -> {
            try (StoreIterator<ListEntry> it = store.list(ListRequest.of(key.bucket(), prefix))) {
                assertThat(it.hasNext()).isTrue();
                assertThat(((ListEntry.ListedObject) it.next()).name()).isEqualTo(key.key());
                assertThat(it.hasNext()).isFalse();
            }
        }).byType()).isEqualTo(Map.of(CallType.LIST, 1L));
        assertThat(counted(store, all, () -> store.delete(key)).byType()).isEqualTo(Map.of(CallType.DELETE, 1L));
    }
}
