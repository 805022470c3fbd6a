package io.stork.manifest;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The manifest's input, keeping the bytes the parser has read since the current part began, so that a
 * part's statistics are taken as the text they were written as (a slice of the input) instead of being
 * re-generated token by token: at a million parts that copy was most of reading the manifest. Memory stays
 * bounded by one part plus the parser's read-ahead, because the reader releases the bytes before each part.
 */
final class RetainingInput extends FilterInputStream {

    private byte[] buffer = new byte[64 * 1024];
    /** Stream offset of {@code buffer[0]}. */
    private long bufferStart;
    private int length;
    /** Bytes before this stream offset may be dropped. */
    private long keepFrom;

    RetainingInput(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            append(new byte[] {(byte) b}, 0, 1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            append(b, off, n);
        }
        return n;
    }

    /** Skipped bytes are read, so that offsets stay those of the stream. */
    @Override
    public long skip(long n) throws IOException {
        byte[] scratch = new byte[(int) Math.min(n, 8192)];
        long skipped = 0;
        while (skipped < n) {
            int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** The bytes before {@code offset} are no longer needed (the reader is past them). */
    void release(long offset) {
        keepFrom = Math.max(keepFrom, offset);
    }

    /** Bytes held now (for tests of the bound). */
    int held() {
        return length;
    }

    /** The byte at a stream offset, or -1 when it is not held. */
    int byteAt(long offset) {
        return offset < bufferStart || offset >= bufferStart + length ? -1 : buffer[(int) (offset - bufferStart)] & 0xff;
    }

    /**
     * The text between two stream offsets, or null when it is no longer (or not yet) held, for the caller to
     * fall back to copying the value token by token.
     */
    String text(long from, long to) {
        if (from < bufferStart || from > to || to > bufferStart + length) {
            return null;
        }
        return new String(buffer, (int) (from - bufferStart), (int) (to - from), StandardCharsets.UTF_8);
    }

    private void append(byte[] b, int off, int n) {
        if (length + n > buffer.length) {
            // Drop what the reader released before growing: the copy is amortised over many parts.
            int drop = (int) Math.min(Math.max(0, keepFrom - bufferStart), length);
            System.arraycopy(buffer, drop, buffer, 0, length - drop);
            length -= drop;
            bufferStart += drop;
            if (length + n > buffer.length) {
                buffer = java.util.Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + n));
            }
        }
        System.arraycopy(b, off, buffer, length, n);
        length += n;
    }
}
