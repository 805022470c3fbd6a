package io.stork.store;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A streaming upload of unknown length. Memory is bounded by the client's configuration whatever the
 * object size. {@link #close()} is the commit point: only when it returns is the object visible.
 * After a failure, or {@link #abort()}, no object is visible and server-side leftovers (an S3 multipart
 * upload) are cleaned up.
 */
public abstract class UploadStream extends OutputStream {

    /** Abandons the upload: nothing becomes visible. Idempotent; a no-op after a successful close. */
    public abstract void abort();

    /** The committed object; only valid after {@link #close()} returned normally. */
    public abstract ObjectInfo result();

    /** The most bytes this stream held in memory at once: the bound the configuration promises. */
    public abstract long peakBufferedBytes();

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }
}
