package io.stork.store.swift;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Hands bytes from a writer thread to the HTTP client's reader with a fixed number of buffers, so a
 * streaming upload holds at most {@code (capacity + 2) * chunkSize} bytes. Either side can fail the
 * pipe; the other then sees the failure instead of blocking forever. (The JDK's PipedInputStream polls
 * once a second and breaks when its writer thread ends, which a pooled writer does.)
 */
final class BoundedPipe {

    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> queue;
    private final int chunkSize;
    private volatile IOException failure;

    BoundedPipe(int chunkSize, int capacity) {
        this.chunkSize = chunkSize;
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    int chunkSize() {
        return chunkSize;
    }

    /** Queues a full (or final) chunk; blocks while the queue is full. The pipe owns the array afterwards. */
    void put(byte[] chunk) throws IOException {
        try {
            while (!queue.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
                checkFailure();
            }
            checkFailure();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while uploading");
        }
    }

    /** Marks the end of the data; the reader sees end-of-stream once the queue is drained. */
    void finish() throws IOException {
        put(END);
    }

    /** Fails both sides: the reader's next read throws, so the HTTP request is abandoned mid-body. */
    void fail(IOException cause) {
        if (failure == null) {
            failure = cause;
        }
        queue.clear();
    }

    private void checkFailure() throws IOException {
        IOException f = failure;
        if (f != null) {
            throw f;
        }
    }

    /** The reading side, for {@code BodyPublishers.ofInputStream}. */
    InputStream input() {
        return new InputStream() {
            private byte[] current;
            private int position;
            private boolean ended;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (ended) {
                    return -1;
                }
                while (current == null || position == current.length) {
                    current = take();
                    position = 0;
                    if (current == END) {
                        ended = true;
                        return -1;
                    }
                }
                int n = Math.min(len, current.length - position);
                System.arraycopy(current, position, b, off, n);
                position += n;
                return n;
            }

            private byte[] take() throws IOException {
                try {
                    byte[] chunk;
                    do {
                        checkFailure();
                        chunk = queue.poll(100, TimeUnit.MILLISECONDS);
                    } while (chunk == null);
                    checkFailure();
                    return chunk;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading upload data");
                }
            }

            @Override
            public void close() {
                fail(new IOException("upload body closed by the HTTP client"));
            }
        };
    }
}
