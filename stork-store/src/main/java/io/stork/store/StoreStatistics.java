package io.stork.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts REST calls by type, with bytes sent and received, for one client and, through the parent,
 * for the whole process. Calls are counted where they go on the wire (each attempt of a retried call,
 * each part of a multipart upload), so the counts match the store's access log. Recording is a few
 * uncontended adds; {@link #snapshot()} is cheap enough to call per task.
 */
public final class StoreStatistics {

    private static final StoreStatistics PROCESS_WIDE = new StoreStatistics(null);

    private final StoreStatistics parent;
    private final Map<CallType, LongAdder> calls = counters();
    private final Map<CallType, LongAdder> failures = counters();
    private final Map<CallType, LongAdder> bytesSent = counters();
    private final Map<CallType, LongAdder> bytesReceived = counters();

    private StoreStatistics(StoreStatistics parent) {
        this.parent = parent;
    }

    /** New statistics for one client, also adding to {@link #processWide()}. */
    public static StoreStatistics forClient() {
        return new StoreStatistics(PROCESS_WIDE);
    }

    /** Every call of every client in this JVM. */
    public static StoreStatistics processWide() {
        return PROCESS_WIDE;
    }

    /** Records one call that went on the wire; {@code failed} when it got no 2xx/3xx answer. */
    public void recordCall(CallType type, long sent, long received, boolean failed) {
        calls.get(type).increment();
        if (failed) {
            failures.get(type).increment();
        }
        addBytes(type, sent, received);
        if (parent != null) {
            parent.recordCall(type, sent, received, failed);
        }
    }

    /** Adds bytes to calls already recorded, e.g. a GET body as the caller reads it. */
    public void recordBytes(CallType type, long sent, long received) {
        addBytes(type, sent, received);
        if (parent != null) {
            parent.recordBytes(type, sent, received);
        }
    }

    private void addBytes(CallType type, long sent, long received) {
        if (sent > 0) {
            bytesSent.get(type).add(sent);
        }
        if (received > 0) {
            bytesReceived.get(type).add(received);
        }
    }

    public StatisticsSnapshot snapshot() {
        return new StatisticsSnapshot(sum(calls), sum(failures), sum(bytesSent), sum(bytesReceived));
    }

    private static Map<CallType, LongAdder> counters() {
        Map<CallType, LongAdder> map = new EnumMap<>(CallType.class);
        for (CallType type : CallType.values()) {
            map.put(type, new LongAdder());
        }
        return map;
    }

    private static Map<CallType, Long> sum(Map<CallType, LongAdder> counters) {
        Map<CallType, Long> values = new EnumMap<>(CallType.class);
        counters.forEach((type, adder) -> {
            long value = adder.sum();
            if (value != 0) {
                values.put(type, value);
            }
        });
        return values;
    }
}
