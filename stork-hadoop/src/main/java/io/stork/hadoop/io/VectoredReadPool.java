package io.stork.hadoop.io;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a file system's streams fetch vectored ranges on: daemon threads named for the bucket, each
 * fetch run in the I/O statistics context of the thread that asked for it ({@link ThreadIOStatistics}), so
 * that a task's counters include what was fetched on its behalf.
 */
public final class VectoredReadPool implements AutoCloseable {

    private final ExecutorService threads;
    private final Executor fetches;

    public VectoredReadPool(String bucket, int size) {
        AtomicInteger count = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(size, r -> {
            Thread t = new Thread(r, "stork-vectored-read-" + bucket + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.fetches = ThreadIOStatistics.propagating(threads);
    }

    /** Where streams submit their fetches. */
    public Executor executor() {
        return fetches;
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
