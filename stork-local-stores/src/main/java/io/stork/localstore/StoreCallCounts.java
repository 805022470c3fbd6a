package io.stork.localstore;

import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * REST calls counted at the store for one window of its access log.
 *
 * @param entries the requests clients sent
 * @param bytesCopied bytes the store read to serve server-side copies (COPY, PUT with a copy source)
 */
public record StoreCallCounts(List<AccessLogEntry> entries, long bytesCopied) {

    public StoreCallCounts {
        entries = List.copyOf(entries);
    }

    public Map<CallType, Long> byType() {
        Map<CallType, Long> counts = new EnumMap<>(CallType.class);
        entries.forEach(e -> counts.merge(e.callType(), 1L, Long::sum));
        return counts;
    }

    public long calls(CallType type) {
        return byType().getOrDefault(type, 0L);
    }

    public long total() {
        return entries.size();
    }

    /** Bytes the store received in request bodies. */
    public long bytesReceived() {
        return entries.stream().mapToLong(AccessLogEntry::bytesReceived).sum();
    }

    /** Bytes the store sent in response bodies. */
    public long bytesSent() {
        return entries.stream().mapToLong(AccessLogEntry::bytesSent).sum();
    }

    /** Calls by type in {@link CallType} order, e.g. {@code PUT=1 GET=2}, like {@link StatisticsSnapshot#callsByType()}. */
    public String callsByType() {
        StringBuilder b = new StringBuilder();
        byType().forEach((type, n) -> b.append(b.length() == 0 ? "" : " ").append(type).append('=').append(n));
        return b.length() == 0 ? "(none)" : b.toString();
    }

    /** Whether the client's own counters (a snapshot delta) agree with the store, type by type. */
    public boolean agreesWith(StatisticsSnapshot client) {
        return byType().equals(client.calls());
    }
}
