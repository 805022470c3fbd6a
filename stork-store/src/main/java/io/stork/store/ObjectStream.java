package io.stork.store;

import java.io.FilterInputStream;
import java.io.InputStream;

/**
 * The body of a GET with the facts that GET returned: the whole object's metadata, and the range served.
 * Closing it before the end releases the connection (the client may discard it rather than drain it).
 */
public class ObjectStream extends FilterInputStream {

    private final ObjectInfo info;
    private final long rangeStart;
    private final long rangeLength;

    public ObjectStream(InputStream body, ObjectInfo info, long rangeStart, long rangeLength) {
        super(body);
        this.info = info;
        this.rangeStart = rangeStart;
        this.rangeLength = rangeLength;
    }

    /** The whole object's length, ETag, last-modified time and user metadata. */
    public ObjectInfo info() {
        return info;
    }

    /** Offset in the object of the first byte of this stream. */
    public long rangeStart() {
        return rangeStart;
    }

    /** Number of bytes this stream delivers. */
    public long rangeLength() {
        return rangeLength;
    }
}
