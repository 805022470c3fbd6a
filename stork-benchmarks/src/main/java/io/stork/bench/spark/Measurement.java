package io.stork.bench.spark;

import java.util.Map;
import java.util.TreeMap;

/**
 * One workload of one scenario in one run, as the store saw it: REST calls by type (from the store's access
 * log), bytes the store received, sent and copied internally, and the wall time of the job.
 *
 * @param calls calls by {@link io.stork.store.CallType} name
 * @param bytesWritten request-body bytes the store received
 * @param bytesRead response-body bytes the store sent
 * @param bytesCopied bytes the store copied server-side (COPY requests: the rename of a file system)
 * @param result the workload's result, the same for every scenario
 * @param verified what reading the output back found, the same for every scenario
 */
public record Measurement(String scenario, int run, String workload, long wallMillis, Map<String, Long> calls,
                          long bytesWritten, long bytesRead, long bytesCopied, String result, String verified) {

    public Measurement {
        calls = new TreeMap<>(calls);
    }

    public long totalCalls() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }
}
