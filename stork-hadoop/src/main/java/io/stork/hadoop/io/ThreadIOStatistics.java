package io.stork.hadoop.io;

import io.stork.store.cache.CacheReadListener;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.hadoop.fs.statistics.IOStatisticsContext;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;

/**
 * The block cache's bytes in Hadoop's thread-level I/O statistics ({@link IOStatisticsContext}), the
 * mechanism Hadoop gives for a task to learn its own I/O when its executor's tasks share streams, pools and
 * caches: each read's bytes served from the cache and fetched from the store are added, on the reading
 * thread, to that thread's context, and a vectored read's fetches, which run on the file system's pool,
 * are added to the context of the thread that asked for them. A Spark task reads its share with
 * {@link #counting()}. Nothing is added where Hadoop's thread-level statistics are off
 * ({@code fs.iostatistics.thread.level.enabled}).
 */
public final class ThreadIOStatistics {

    public static final String CACHE_BYTES_SERVED = "stork_cache_bytes_served";
    public static final String CACHE_BYTES_FETCHED = "stork_cache_bytes_fetched";

    private ThreadIOStatistics() {
    }

    /** A listener that adds the cache's bytes to the reading thread's context. */
    public static CacheReadListener cacheReads() {
        return new CacheReadListener() {
            @Override
            public void servedFromCache(long bytes) {
                add(CACHE_BYTES_SERVED, bytes);
            }

            @Override
            public void fetchedFromStore(long bytes) {
                add(CACHE_BYTES_FETCHED, bytes);
            }
        };
    }

    /**
     * One statistics object per thread to hand the context's aggregator, rather than a new one (five maps)
     * per read: reads come in pieces of a few KiB.
     */
    private static final ThreadLocal<IOStatisticsSnapshot> DELTA = ThreadLocal.withInitial(IOStatisticsSnapshot::new);

    private static void add(String counter, long bytes) {
        if (bytes <= 0 || !IOStatisticsContext.enabled()) {
            return;
        }
        IOStatisticsSnapshot delta = DELTA.get();
        delta.setCounter(CACHE_BYTES_SERVED, 0);
        delta.setCounter(CACHE_BYTES_FETCHED, 0);
        delta.setCounter(counter, bytes);
        IOStatisticsContext.getCurrentIOStatisticsContext().getAggregator().aggregate(delta);
    }

    /** {@code pool}, running each command in the context of the thread that submitted it. */
    public static Executor propagating(Executor pool) {
        return command -> {
            IOStatisticsContext submitter = IOStatisticsContext.getCurrentIOStatisticsContext();
            pool.execute(() -> {
                IOStatisticsContext own = IOStatisticsContext.getCurrentIOStatisticsContext();
                IOStatisticsContext.setThreadIOStatisticsContext(submitter);
                try {
                    command.run();
                } finally {
                    IOStatisticsContext.setThreadIOStatisticsContext(own);
                }
            });
        };
    }

    /**
     * Starts counting this thread's cache bytes. The counter holds the thread's context: Hadoop keeps a
     * thread's context only weakly, and one nothing holds may be collected mid-task and replaced by an empty one.
     */
    public static CacheBytes counting() {
        return new CacheBytes(IOStatisticsContext.enabled() ? IOStatisticsContext.getCurrentIOStatisticsContext() : null);
    }

    /** A thread's cache bytes since {@link #counting()}. */
    public static final class CacheBytes {
        private final IOStatisticsContext context;
        private final long servedAtStart;
        private final long fetchedAtStart;

        private CacheBytes(IOStatisticsContext context) {
            this.context = context;
            long[] now = now();
            this.servedAtStart = now[0];
            this.fetchedAtStart = now[1];
        }

        private long[] now() {
            if (context == null) {
                return new long[2];
            }
            Map<String, Long> counters = context.snapshot().counters();
            return new long[] {counters.getOrDefault(CACHE_BYTES_SERVED, 0L), counters.getOrDefault(CACHE_BYTES_FETCHED, 0L)};
        }

        /** {bytes served from the cache, bytes it fetched from the store} since counting started. */
        public long[] sinceStart() {
            long[] now = now();
            return new long[] {now[0] - servedAtStart, now[1] - fetchedAtStart};
        }
    }
}
