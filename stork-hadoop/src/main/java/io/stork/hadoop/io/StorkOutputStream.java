package io.stork.hadoop.io;

import io.stork.store.UploadStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A file being written: a streaming upload whose {@link #close()} is the commit point. Nothing is visible
 * before; {@link #abort()} leaves nothing. hflush/hsync are not offered (an object cannot be appended to or
 * made visible in part), and say so through {@link StreamCapabilities}.
 */
public final class StorkOutputStream extends OutputStream implements Abortable, StreamCapabilities {

    private final UploadStream upload;
    private final String path;
    private final java.util.function.Consumer<Written> onCommit;
    private final byte[] last = new byte[8]; // the last bytes written, for the tail a reader needs first
    private long written;
    private boolean closed;

    /**
     * What a committed file was: the store's answer, and the bytes at its end a reader needs first (a
     * Parquet footer, its length and magic; 0 for anything else).
     */
    public record Written(io.stork.store.ObjectInfo info, int tail) {
    }

    public StorkOutputStream(UploadStream upload, String path, java.util.function.Consumer<Written> onCommit) {
        this.upload = upload;
        this.path = path;
        this.onCommit = onCommit;
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        upload.write(b);
        System.arraycopy(last, 1, last, 0, 7);
        last[7] = (byte) b;
        written++;
    }

    @Override
    public void write(byte[] buffer, int offset, int count) throws IOException {
        checkOpen();
        upload.write(buffer, offset, count);
        if (count >= 8) {
            System.arraycopy(buffer, offset + count - 8, last, 0, 8);
        } else if (count > 0) {
            System.arraycopy(last, count, last, 0, 8 - count);
            System.arraycopy(buffer, offset, last, 8 - count, count);
        }
        written += count;
    }

    /** A Parquet file ends with its footer's length (4 bytes, little-endian) and "PAR1": footer + 8, else 0. */
    int tail() {
        if (written < 12 || last[4] != 'P' || last[5] != 'A' || last[6] != 'R' || last[7] != '1') {
            return 0;
        }
        long footer = (last[0] & 0xFFL) | (last[1] & 0xFFL) << 8 | (last[2] & 0xFFL) << 16 | (last[3] & 0xFFL) << 24;
        return footer + 8 <= written && footer + 8 <= Integer.MAX_VALUE ? (int) (footer + 8) : 0;
    }

    @Override
    public void flush() throws IOException {
        checkOpen();
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        commit(upload, path);
        onCommit.accept(new Written(upload.result(), tail()));
    }

    /** Completes an upload; a conditional create that lost to another writer fails as Hadoop expects. */
    public static void commit(UploadStream upload, String path) throws IOException {
        try {
            upload.close();
        } catch (io.stork.store.ObjectExistsException e) {
            throw new org.apache.hadoop.fs.FileAlreadyExistsException(path + " already exists (created meanwhile; "
                    + "this create was conditional, so nothing was overwritten)");
        }
    }

    @Override
    public synchronized AbortableResult abort() {
        boolean wasClosed = closed;
        closed = true;
        if (!wasClosed) {
            upload.abort();
        }
        return new AbortableResult() {
            @Override
            public boolean alreadyClosed() {
                return wasClosed;
            }

            @Override
            public IOException anyCleanupException() {
                return null;
            }
        };
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(path + ": " + FSExceptionMessages.STREAM_IS_CLOSED);
        }
    }

    @Override
    public boolean hasCapability(String capability) {
        switch (capability.toLowerCase(Locale.ROOT)) {
            case StreamCapabilities.ABORTABLE_STREAM:
                return true;
            default:
                return false; // no hflush, hsync
        }
    }
}
