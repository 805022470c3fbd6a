package io.stork.hadoop.io;

import io.stork.store.ByteRange;
import java.io.IOException;

/**
 * The bytes of an object one GET fetched ahead of the reads that want them ({@link ReadPolicy}): a small
 * object whole, or a larger one's tail. Fetched at most once per stream, when the policy says a read is
 * the moment; reads inside them are served from memory.
 */
final class Prefetch {

    /** One GET of a range, whole, as the stream makes it (conditional on the object's ETag). */
    interface Fetcher {
        byte[] fetch(ByteRange range) throws IOException;
    }

    private final ReadPolicy policy;
    private byte[] bytes;
    private long start;

    Prefetch(ReadPolicy policy) {
        this.policy = policy;
    }

    /** Copies what it holds at {@code at} (fetching first if this read is the moment); -1 if not its read. */
    int read(long length, long at, byte[] buffer, int offset, int count, Fetcher fetcher) throws IOException {
        if (bytes == null) {
            ByteRange range = policy.prefetch(length, at);
            if (range == null) {
                return -1;
            }
            bytes = fetcher.fetch(range);
            start = range.start();
        }
        if (at < start || at >= start + bytes.length) {
            return -1;
        }
        int n = (int) Math.min(count, start + bytes.length - at);
        System.arraycopy(bytes, (int) (at - start), buffer, offset, n);
        return n;
    }

    /** A tail was fetched: the reader started at the end, as columnar readers do. */
    boolean heldTail() {
        return bytes != null && start > 0;
    }
}
