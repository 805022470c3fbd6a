package io.stork.spark.layout.history;

import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import io.stork.layout.model.Range;
import io.stork.skipping.expr.Predicate;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps, per dataset, the queries data skipping judged (their per-column ranges, docs/layouts.md "Query
 * history"), and writes them beside the dataset from a background thread of the driver: at most one write
 * per dataset per interval ({@value #FLUSH_INTERVAL}), and the rest when the application ends. Recording
 * is an in-memory append: a query gains no call and no wait. One per Spark session (its skipping rule's);
 * memory is bounded (a capacity per dataset, {@value #MAX_DATASETS} datasets pending).
 */
public final class QueryHistoryRecorder extends SparkListener {

    /** Capture queries' predicates into their datasets' history (default true). */
    public static final String ENABLED = "spark.stork.layout.history.enabled";
    /** How often pending queries are written, at most once per dataset (default 60s). */
    public static final String FLUSH_INTERVAL = "spark.stork.layout.history.flushInterval";
    /** Queries a dataset's history keeps, the oldest dropped first (default 1000). */
    public static final String CAPACITY = "spark.stork.layout.history.capacity";

    static final int MAX_DATASETS = 256;
    /** The same ranges on the same dataset within this time are one query planned twice (explain, then run). */
    private static final long SAME_QUERY_MILLIS = 2_000;
    private static final Logger LOG = LoggerFactory.getLogger(QueryHistoryRecorder.class);

    private final SparkContext context;
    private final long intervalMillis;
    private final int capacity;
    private final Map<Path, Pending> pending = new LinkedHashMap<>();
    private final Set<Path> failed = new HashSet<>();
    private ScheduledExecutorService flusher;
    private boolean overflowReported;

    private static final class Pending {
        final Configuration conf;
        final ArrayDeque<QueryRecord> queries = new ArrayDeque<>();

        Pending(Configuration conf) {
            this.conf = conf;
        }
    }

    public QueryHistoryRecorder(SparkContext context, long intervalMillis, int capacity) {
        if (intervalMillis <= 0 || capacity < 1) {
            throw new IllegalArgumentException(FLUSH_INTERVAL + " must be positive and " + CAPACITY
                    + " at least 1, not " + intervalMillis + " ms and " + capacity);
        }
        this.context = context;
        this.intervalMillis = intervalMillis;
        this.capacity = capacity;
    }

    /** What a scan over a relation of {@code schema} reports to this recorder. */
    public io.stork.spark.skipping.ScanObserver observer(StructType schema, Configuration conf) {
        return (root, normalized) -> record(root, normalized, schema, conf);
    }

    /** Records a judged query on the dataset at {@code root}: no call, no wait. */
    void record(Path root, Predicate normalized, StructType schema, Configuration conf) {
        Map<String, Range> ranges = PredicateRanges.of(normalized, schema);
        if (ranges.isEmpty()) {
            return;
        }
        QueryRecord query = QueryRecord.of(System.currentTimeMillis(), ranges);
        root = datasetOf(root);
        synchronized (this) {
            if (failed.contains(root)) {
                return;
            }
            Pending p = pending.get(root);
            if (p == null) {
                if (pending.size() >= MAX_DATASETS) {
                    if (!overflowReported) {
                        overflowReported = true;
                        LOG.warn("Stork query history: {} datasets have queries waiting to be written; queries on "
                                + "others are not kept until the next write", MAX_DATASETS);
                    }
                    return;
                }
                p = new Pending(conf);
                pending.put(root, p);
            }
            QueryRecord last = p.queries.peekLast();
            if (last != null && last.constraints().equals(query.constraints())
                    && query.timeMillis() - last.timeMillis() < SAME_QUERY_MILLIS) {
                return;
            }
            p.queries.addLast(query);
            if (p.queries.size() > capacity) {
                p.queries.removeFirst();
            }
            startFlusher();
        }
    }

    /** A pinned generation's path ({@code t@v3}) is its dataset's: the history is the dataset's. */
    private static Path datasetOf(Path root) {
        return io.stork.manifest.SnapshotRef.of(root.getName())
                .map(ref -> new Path(root.getParent(), ref.dataset())).orElse(root);
    }

    private void startFlusher() {
        if (flusher != null) {
            return;
        }
        flusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "stork-query-history");
            t.setDaemon(true);
            return t;
        });
        flusher.scheduleWithFixedDelay(this::flushQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        context.addSparkListener(this);
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warn("Stork query history: write failed ({})", e.toString());
        }
    }

    /** Writes every dataset's pending queries now (one GET and one PUT per dataset); returns how many. */
    public int flush() {
        Map<Path, Pending> batch;
        synchronized (this) {
            batch = new LinkedHashMap<>(pending);
            pending.clear();
        }
        int written = 0;
        for (Map.Entry<Path, Pending> e : batch.entrySet()) {
            List<QueryRecord> queries = new ArrayList<>(e.getValue().queries);
            try {
                QueryHistory merged = HistoryFile.append(e.getKey(), e.getValue().conf, queries, capacity);
                written++;
                LOG.debug("Stork query history of {}: {} queries added, {} kept", e.getKey(), queries.size(),
                        merged.size());
            } catch (IOException | RuntimeException ex) {
                synchronized (this) {
                    failed.add(e.getKey()); // e.g. read-only credentials: do not try on every interval
                }
                LOG.warn("Stork query history: could not write {} ({}); queries on it are not kept for the rest of "
                        + "this session (turn capture off with {}=false)", HistoryFile.of(e.getKey()), ex.toString(),
                        ENABLED);
            }
        }
        return written;
    }

    @Override
    public void onApplicationEnd(SparkListenerApplicationEnd end) {
        ScheduledExecutorService f;
        synchronized (this) {
            f = flusher;
        }
        if (f != null) {
            f.shutdown();
        }
        flushQuietly();
    }
}
