package io.stork.hadoop.io;

import io.stork.store.ByteRange;

/**
 * How a stream fetches an object whose length it knows (from a manifest or a listing), settled once per
 * file system from its configuration.
 *
 * @param readahead        forward seeks shorter than this read on in the open GET instead of opening another
 * @param wholeObjectLimit objects up to this size are fetched whole by the first read and served from memory:
 *                         a columnar reader's footer, then its column chunks, would otherwise cost a GET each
 * @param tailSize         for larger objects, a first read this close to the end (a Parquet or ORC footer)
 *                         fetches the whole tail in one GET; the reader's next footer reads come from memory
 */
public record ReadPolicy(long readahead, long wholeObjectLimit, int tailSize) {

    public static final long DEFAULT_WHOLE_OBJECT_LIMIT = 1024 * 1024;
    public static final int DEFAULT_TAIL_SIZE = 16 * 1024;

    public ReadPolicy {
        if (readahead < 0 || wholeObjectLimit < 0 || tailSize < 0) {
            throw new IllegalArgumentException("read policy sizes must not be negative: " + readahead + ", "
                    + wholeObjectLimit + ", " + tailSize);
        }
    }

    /** The range one GET should fetch into memory before a read at {@code position}, or null: read as usual. */
    ByteRange prefetch(long length, long position) {
        if (length <= 0 || length == Long.MAX_VALUE) {
            return null; // unknown length: the first GET learns it
        }
        if (length <= wholeObjectLimit) {
            return ByteRange.of(0, length);
        }
        if (tailSize > 0 && position >= length - tailSize) {
            return ByteRange.of(length - tailSize, tailSize);
        }
        return null;
    }

    /**
     * The policy for a part whose manifest entry names the tail its reader needs first ({@code partTail},
     * a Parquet footer with its length and magic; 0 unknown). A footer larger than the tail size is fetched
     * whole by the first GET instead of in two. A smaller one is fetched exactly only when {@code exact}
     * ({@code fs.stork.read.tail.exact}): the default tail also holds the page indexes Parquet writes just
     * before its footer, which an exact tail leaves to a GET each (fewer bytes, more calls).
     */
    public ReadPolicy forPart(int partTail, boolean exact) {
        if (partTail <= 0 || partTail == tailSize || tailSize == 0 || (partTail < tailSize && !exact)) {
            return this;
        }
        return new ReadPolicy(readahead, wholeObjectLimit, partTail);
    }
}
