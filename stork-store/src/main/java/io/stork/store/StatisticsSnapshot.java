package io.stork.store;

import java.util.EnumMap;
import java.util.Map;

/** An immutable reading of {@link StoreStatistics}; subtract two readings to get one job's calls. */
public record StatisticsSnapshot(Map<CallType, Long> calls, Map<CallType, Long> failures,
                                 Map<CallType, Long> bytesSent, Map<CallType, Long> bytesReceived) {

    public StatisticsSnapshot {
        calls = Map.copyOf(calls);
        failures = Map.copyOf(failures);
        bytesSent = Map.copyOf(bytesSent);
        bytesReceived = Map.copyOf(bytesReceived);
    }

    public long calls(CallType type) {
        return calls.getOrDefault(type, 0L);
    }

    public long totalCalls() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    public long totalBytesSent() {
        return bytesSent.values().stream().mapToLong(Long::longValue).sum();
    }

    public long totalBytesReceived() {
        return bytesReceived.values().stream().mapToLong(Long::longValue).sum();
    }

    /** This reading minus an earlier one. */
    public StatisticsSnapshot minus(StatisticsSnapshot earlier) {
        return new StatisticsSnapshot(diff(calls, earlier.calls), diff(failures, earlier.failures),
                diff(bytesSent, earlier.bytesSent), diff(bytesReceived, earlier.bytesReceived));
    }

    private static Map<CallType, Long> diff(Map<CallType, Long> now, Map<CallType, Long> before) {
        Map<CallType, Long> result = new EnumMap<>(CallType.class);
        for (CallType type : CallType.values()) {
            long value = now.getOrDefault(type, 0L) - before.getOrDefault(type, 0L);
            if (value != 0) {
                result.put(type, value);
            }
        }
        return result;
    }

    /** Calls by type in a stable order, e.g. {@code PUT=1 GET=2}; non-zero types only. */
    public String callsByType() {
        StringBuilder b = new StringBuilder();
        for (CallType type : CallType.values()) {
            long n = calls(type);
            if (n != 0) {
                b.append(b.length() == 0 ? "" : " ").append(type).append('=').append(n);
            }
        }
        return b.length() == 0 ? "(none)" : b.toString();
    }
}
