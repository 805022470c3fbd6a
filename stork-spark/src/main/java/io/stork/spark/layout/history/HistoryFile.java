package io.stork.spark.layout.history;

import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import io.stork.layout.json.HistoryJson;
import io.stork.spark.layout.InternalFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A dataset's query history on the store: {@code <dataset>/_stork/layout/history.json}, beside its layout
 * model, read whole (one GET) and replaced whole (one PUT). Replacing rather than appending keeps it
 * bounded by its capacity; two drivers flushing the same dataset at the same instant can lose one batch of
 * the other's queries, which only makes the history a little less complete (it steers layouts, it is not
 * data).
 */
public final class HistoryFile {

    /** Where a dataset keeps its query history, relative to its root. */
    public static final String LOCATION = "_stork/layout/history.json";

    private HistoryFile() {
    }

    public static Path of(Path datasetRoot) {
        return new Path(datasetRoot, LOCATION);
    }

    /** The dataset's history, or empty if it has none (one GET either way). */
    public static Optional<QueryHistory> read(Path datasetRoot, Configuration conf) throws IOException {
        Path location = of(datasetRoot);
        Optional<byte[]> json = InternalFile.read(location, conf);
        try {
            return json.map(bytes -> HistoryJson.read(new String(bytes, StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
            throw new IOException("not a query history: " + location + ": " + e.getMessage(), e);
        }
    }

    /** Replaces the dataset's history with {@code history} (one PUT). */
    public static void write(Path datasetRoot, Configuration conf, QueryHistory history) throws IOException {
        InternalFile.write(of(datasetRoot), conf, HistoryJson.write(history).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Adds {@code queries} to the stored history (one GET, one PUT), keeping at most {@code capacity}; an
     * unreadable stored history is replaced, since what it held cannot be used anyway.
     */
    public static QueryHistory append(Path datasetRoot, Configuration conf, List<QueryRecord> queries, int capacity)
            throws IOException {
        List<QueryRecord> all = new java.util.ArrayList<>();
        try {
            read(datasetRoot, conf).ifPresent(h -> all.addAll(h.queries()));
        } catch (IOException e) {
            if (!(e.getCause() instanceof RuntimeException)) {
                throw e;
            }
        }
        all.addAll(queries);
        QueryHistory merged = QueryHistory.of(capacity, all);
        write(datasetRoot, conf, merged);
        return merged;
    }
}
