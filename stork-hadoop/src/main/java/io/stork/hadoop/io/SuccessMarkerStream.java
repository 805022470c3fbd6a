package io.stork.hadoop.io;

import io.stork.store.UploadStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A {@code _SUCCESS} being written. Hadoop's classic committer writes it empty as its last step; then,
 * if a job commit is pending here (see {@link ClassicCommitEmulation}), the Stork manifest is written in
 * its place and the empty upload abandoned. Anything with content (a Stork manifest written by Stork's
 * own committers, another tool's marker) is uploaded as it is.
 */
public final class SuccessMarkerStream extends OutputStream {

    public interface Commit {
        boolean run() throws IOException;
    }

    private final UploadStream upload;
    private final String path;
    private final Commit commitIfEmpty;
    private final Runnable onClose;
    private long written;
    private boolean closed;

    public SuccessMarkerStream(UploadStream upload, String path, Commit commitIfEmpty, Runnable onClose) {
        this.upload = upload;
        this.path = path;
        this.commitIfEmpty = commitIfEmpty;
        this.onClose = onClose;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] buffer, int offset, int count) throws IOException {
        if (closed) {
            throw new IOException(path + ": stream is closed");
        }
        upload.write(buffer, offset, count);
        written += count;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            boolean replaced;
            try {
                replaced = written == 0 && commitIfEmpty.run();
            } catch (IOException | RuntimeException e) {
                upload.abort();
                throw e;
            }
            if (replaced) {
                upload.abort();
                return;
            }
            StorkOutputStream.commit(upload, path);
        } finally {
            onClose.run();
        }
    }
}
