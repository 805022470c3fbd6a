package io.stork.bench;

import io.stork.localstore.AccessLogEntry;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What the read benchmarks (data skipping, layouts) count at the store's access log for a query, and the
 * small helpers they share: the data objects opened, the bytes sent, the GETs; Spark's scan listing time;
 * medians; {@code --option value} command lines.
 */
public final class StoreReads {

    private StoreReads() {
    }

    /** Distinct data objects the store served a GET for, all bytes it sent, all GETs. */
    public record Read(long objects, long bytes, long gets) {
    }

    /** The entries of {@code bucket} among {@code entries} (marker requests and other buckets left out). */
    public static List<AccessLogEntry> inBucket(List<AccessLogEntry> entries, String bucket) {
        return entries.stream().filter(e -> e.path().contains("/" + bucket + "/") || e.path().endsWith("/" + bucket))
                .toList();
    }

    public static Read read(List<AccessLogEntry> entries) {
        long objects = entries.stream().filter(e -> e.method().equals("GET") && isDataObject(e.path()))
                .map(AccessLogEntry::path).distinct().count();
        long bytes = entries.stream().mapToLong(AccessLogEntry::bytesSent).sum();
        long gets = entries.stream().filter(e -> e.method().equals("GET")).count();
        return new Read(objects, bytes, gets);
    }

    /** A data object of Stork or Delta: a {@code part-} file outside Delta's log. */
    public static boolean isDataObject(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.startsWith("part-") && !path.contains("_delta_log");
    }

    /** The file scans' listing time (Spark's "metadata time" metric: listing plus any skipping). */
    public static long listingMs(SparkPlan plan) {
        long ms = 0;
        if (plan instanceof FileSourceScanExec scan && scan.metrics().contains("metadataTime")) {
            ms += scan.metrics().apply("metadataTime").value();
        }
        for (SparkPlan child : CollectionConverters.asJava(plan.children())) {
            ms += listingMs(child);
        }
        return ms;
    }

    public static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /**
     * {@code --name value} pairs, in order; a {@code --flag} followed by another option or by nothing is
     * {@code true}; anything else fails on one line.
     */
    public static Map<String, String> options(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, not " + args[i]);
            }
            boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
            opts.put(args[i].substring(2), flag ? "true" : args[++i]);
        }
        return opts;
    }
}
