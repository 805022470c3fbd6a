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
    private final WrittenTail tail; // the last bytes written, for the tail a reader needs first
    private boolean closed;

    /**
     * What a committed file was: the store's answer, and the bytes at its end a reader needs first (a
     * Parquet footer, its length and magic; 0 for anything else).
     */
    public record Written(io.stork.store.ObjectInfo info, int tail) {
    }

    public StorkOutputStream(UploadStream upload, String path, java.util.function.Consumer<Written> onCommit) {
        this(upload, path, java.util.List.of(), onCommit);
    }

    /** @param measures what tells the tail a reader needs first ({@link TailMeasure}) */
    public StorkOutputStream(UploadStream upload, String path, java.util.List<TailMeasure> measures,
                             java.util.function.Consumer<Written> onCommit) {
        this.upload = upload;
        this.path = path;
        this.onCommit = onCommit;
        this.tail = new WrittenTail(measures, path.substring(path.lastIndexOf('/') + 1));
    }

    /** The tail measures on a class path (a file system loads them once). */
    public static java.util.List<TailMeasure> tailMeasures(ClassLoader loader) {
        return WrittenTail.load(loader);
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        upload.write(b);
        tail.write(b);
    }

    @Override
    public void write(byte[] buffer, int offset, int count) throws IOException {
        checkOpen();
        upload.write(buffer, offset, count);
        tail.write(buffer, offset, count);
    }

    /** The tail a reader needs first (a Parquet footer, with the page indexes when a measure knows them); 0 unknown. */
    int tail() {
        return tail.tail();
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
