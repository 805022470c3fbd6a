package io.stork.hadoop;

import io.stork.store.CallType;
import io.stork.store.StoreStatistics;
import java.util.Locale;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.impl.DynamicIOStatisticsBuilder;

/**
 * The store client's REST-call counters as Hadoop {@link IOStatistics}: live counters
 * {@code stork_<type>_calls} and {@code stork_<type>_failures} per call type, and
 * {@code stork_bytes_sent}/{@code stork_bytes_received}, read from the client's statistics when asked.
 */
final class StoreIOStatistics {

    private StoreIOStatistics() {
    }

    static IOStatistics of(StoreStatistics statistics) {
        DynamicIOStatisticsBuilder builder = org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.dynamicIOStatistics();
        for (CallType type : CallType.values()) {
            String name = type.name().toLowerCase(Locale.ROOT);
            builder.withLongFunctionCounter("stork_" + name + "_calls", k -> statistics.snapshot().calls(type));
            builder.withLongFunctionCounter("stork_" + name + "_failures",
                    k -> statistics.snapshot().failures().getOrDefault(type, 0L));
        }
        builder.withLongFunctionCounter("stork_bytes_sent", k -> statistics.snapshot().totalBytesSent());
        builder.withLongFunctionCounter("stork_bytes_received", k -> statistics.snapshot().totalBytesReceived());
        return builder.build();
    }
}
