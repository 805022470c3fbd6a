package io.stork.store;

/**
 * A byte range of an object: {@code [start, start + length)}, or from {@code start} to the end when the
 * length is open. A range that starts inside the object but runs past its end is served up to the end,
 * as HTTP does; one that starts at or past the end fails with {@link RangeNotSatisfiableException}.
 */
public record ByteRange(long start, long length) {

    private static final long OPEN = -1;
    private static final ByteRange ALL = new ByteRange(0, OPEN);

    public ByteRange {
        if (start < 0) {
            throw new IllegalArgumentException("range start is negative: " + start);
        }
        if (length < OPEN || length == 0) {
            throw new IllegalArgumentException("range length must be positive: " + length);
        }
    }

    public static ByteRange all() {
        return ALL;
    }

    public static ByteRange of(long start, long length) {
        return new ByteRange(start, length);
    }

    public static ByteRange from(long start) {
        return start == 0 ? ALL : new ByteRange(start, OPEN);
    }

    public boolean isAll() {
        return start == 0 && length == OPEN;
    }

    public boolean isOpenEnded() {
        return length == OPEN;
    }

    /** The HTTP Range header value, or null for the whole object. */
    public String httpHeader() {
        if (isAll()) {
            return null;
        }
        return isOpenEnded() ? "bytes=" + start + "-" : "bytes=" + start + "-" + (start + length - 1);
    }

    @Override
    public String toString() {
        return isOpenEnded() ? "[" + start + ", end)" : "[" + start + ", " + (start + length) + ")";
    }
}
