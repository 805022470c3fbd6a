package io.stork.hadoop.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.impl.CombinedFileRange;

/**
 * Vectored reads for {@link StorkInputStream}: sorts and validates the ranges, merges neighbours closer
 * than {@code minSeek} into combined ranges of at most {@code maxSize}, and reads each combined range with
 * one positioned read on the pool, in parallel; each caller range's buffer is filled from its slice.
 */
final class VectoredFetch {

    private VectoredFetch() {
    }

    static void read(PositionedReadable source, long length, List<? extends FileRange> ranges,
                     IntFunction<ByteBuffer> allocate, Executor pool, int minSeek, int maxSize) throws IOException {
        List<? extends FileRange> sorted = VectoredReadUtils.validateAndSortRanges(ranges,
                length == Long.MAX_VALUE ? Optional.empty() : Optional.of(length));
        for (FileRange range : ranges) {
            range.setData(new CompletableFuture<>());
        }
        for (CombinedFileRange group : VectoredReadUtils.mergeSortedRanges(sorted, 1, minSeek, maxSize)) {
            pool.execute(() -> fetch(source, group, allocate));
        }
    }

    private static void fetch(PositionedReadable source, CombinedFileRange group, IntFunction<ByteBuffer> allocate) {
        try {
            byte[] bytes = new byte[group.getLength()];
            source.readFully(group.getOffset(), bytes, 0, bytes.length);
            for (FileRange range : group.getUnderlying()) {
                ByteBuffer buffer = allocate.apply(range.getLength());
                buffer.put(bytes, (int) (range.getOffset() - group.getOffset()), range.getLength());
                buffer.flip();
                range.getData().complete(buffer);
            }
        } catch (IOException | RuntimeException e) {
            for (FileRange range : group.getUnderlying()) {
                range.getData().completeExceptionally(e);
            }
        }
    }
}
