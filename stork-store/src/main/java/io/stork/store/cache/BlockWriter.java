package io.stork.store.cache;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;

/**
 * The cache's writer thread and the arrays streams fill blocks in. Reads hand blocks over and go on: a cold
 * scan never waits for the disk. When the disk falls behind, blocks past the queue's bound (64 MiB) are
 * dropped and counted (read again from the store next time), so memory stays bounded and the scan's speed
 * is the store's.
 */
final class BlockWriter {

    private static final long PENDING_BYTES = 64L * 1024 * 1024;

    private final int blockSize;
    private final BlockCacheStatistics statistics;
    private final BiConsumer<BlockId, CachedBlock> write;
    private final BlockingQueue<Runnable> pending;
    /** Whole-block arrays written and free for the next block a stream fills (bounded: 16). */
    private final BlockingQueue<byte[]> buffers = new ArrayBlockingQueue<>(16);
    private final Thread thread;
    private volatile boolean closed;

    /** @param write keeps one block (on the writer thread); never throws for a block it cannot keep */
    BlockWriter(int blockSize, BlockCacheStatistics statistics, BiConsumer<BlockId, CachedBlock> write) {
        this.blockSize = blockSize;
        this.statistics = statistics;
        this.write = write;
        this.pending = new ArrayBlockingQueue<>((int) Math.max(4, PENDING_BYTES / blockSize));
        this.thread = new Thread(this::loop, "stork-block-cache-writer");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (!closed) {
            try {
                pending.take().run();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // a block lost, never the cache: the next block is written as usual
            }
        }
    }

    /** An array of the block size for a stream to fill: a recycled one when there is one. */
    byte[] buffer() {
        byte[] b = buffers.poll();
        return b != null ? b : new byte[blockSize];
    }

    /**
     * Hands {@code block} to the writer thread; dropped (and counted) when it is too far behind. The
     * block's array is the writer's from then on (recycled once written).
     */
    void writeLater(BlockId id, CachedBlock block) {
        if (closed || !pending.offer(() -> {
            try {
                write.accept(id, block);
            } finally {
                recycle(block);
            }
        })) {
            statistics.dropped();
            recycle(block);
        }
    }

    private void recycle(CachedBlock block) {
        if (block.bytes().length == blockSize) {
            buffers.offer(block.bytes());
        }
    }

    /** Waits until the blocks handed over so far are written (tests, benchmarks). */
    void flush() throws InterruptedException {
        if (closed) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        pending.put(done::countDown);
        done.await();
    }

    void close() {
        closed = true;
        thread.interrupt();
    }
}
