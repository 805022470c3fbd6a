package io.stork.store.swift;

import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreException;
import io.stork.store.UploadStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A streaming upload over Swift. Objects that end within the first buffer go as one PUT of known length.
 * Past it, the bytes stream as one PUT with chunked transfer encoding ({@link ChunkedPut}) or, when the
 * client has a segment size, as the segments of a static large object ({@link SegmentedUpload}) whose
 * manifest is PUT at close: the only way past Swift's 5 GiB limit on one object.
 *
 * <p>Commit and abort: Swift stores a chunked PUT only when the terminating zero-length chunk arrives, and
 * a segmented object only when its manifest is PUT. An abort or a failure abandons the request in flight
 * (the store discards it, its log shows 499) and deletes any segments written. Optionally the MD5 of the
 * bytes written is checked against the ETag the store returns (per segment, when segmented); on a
 * mismatch the upload fails and nothing stays.
 */
final class SwiftUploadStream extends UploadStream {

    private final SwiftObjectStore store;
    private final SwiftTransport transport;
    private final ObjectKey key;
    private final PutOptions options;
    private final boolean verify;
    private final MessageDigest md5;
    private final AtomicLong buffered = new AtomicLong();
    private final AtomicLong peakBuffered = new AtomicLong();

    private byte[] chunk;
    private int filled;
    private long length;
    private ChunkedPut single;
    private SegmentedUpload segments;
    private boolean closed;
    private boolean aborted;
    private IOException failure;
    private ObjectInfo result;

    SwiftUploadStream(SwiftObjectStore store, SwiftTransport transport, ObjectKey key, PutOptions options) {
        this.store = store;
        this.transport = transport;
        this.key = key;
        this.options = options;
        this.verify = store.config().verifyUploads();
        this.md5 = verify ? newMd5() : null;
        this.chunk = newChunk();
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required by every JDK", e);
        }
    }

    private byte[] newChunk() {
        int size = store.config().uploadChunkSize();
        hold(size);
        return new byte[size];
    }

    /** How many bytes the buffer being filled may take: a full buffer, or what the current segment has left. */
    private int capacity() {
        long segmentSize = store.config().segmentSize();
        long room = segments != null ? segments.room() : segmentSize > 0 ? segmentSize : chunk.length;
        return (int) Math.min(chunk.length, room);
    }

    @Override
    public void write(byte[] data, int offset, int count) throws IOException {
        checkOpen();
        length += count;
        while (count > 0) {
            int n = Math.min(count, capacity() - filled);
            System.arraycopy(data, offset, chunk, filled, n);
            filled += n;
            offset += n;
            count -= n;
            if (filled == capacity()) {
                try {
                    sendChunk(false);
                } catch (IOException | RuntimeException e) {
                    // The request in flight is abandoned already; segments written must not outlive it.
                    failure = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                    if (segments != null) {
                        segments.abort();
                    }
                    throw e;
                }
            }
        }
    }

    private void sendChunk(boolean last) throws IOException {
        if (single == null && segments == null) {
            start();
        }
        if (filled < chunk.length) {
            release(chunk.length - filled);
        }
        byte[] full = chunk;
        int n = filled;
        chunk = null;
        if (segments != null) {
            segments.put(full, n);
        } else {
            if (md5 != null) {
                md5.update(full, 0, n);
            }
            single.put(ByteBuffer.wrap(full, 0, n));
        }
        if (!last) {
            chunk = newChunk();
            filled = 0;
        }
    }

    /** The first buffer is full: the object is larger than one buffer, so it streams. */
    private void start() throws IOException {
        long segmentSize = store.config().segmentSize();
        if (segmentSize > 0) {
            segments = new SegmentedUpload(store, transport, store.largeObjects(), key, segmentSize,
                    verify ? newMd5() : null, this::release);
        } else {
            single = ChunkedPut.start(store, transport, key, options, store.config().uploadBuffers(), this::release);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        checkOpen();
        closed = true;
        if (single == null && segments == null) {
            byte[] bytes = Arrays.copyOf(chunk, filled);
            release(chunk.length);
            chunk = null;
            result = store.put(key, PutBody.of(bytes), options);
            return;
        }
        try {
            if (filled > 0) {
                sendChunk(true);
            } else {
                release(chunk.length);
                chunk = null;
            }
            result = segments != null ? segments.commit(length, options) : commitSingle();
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    private ObjectInfo commitSingle() throws IOException {
        HttpResponse<String> answer = single.finish();
        String etag = ObjectInfo.unquoteEtag(answer.headers().firstValue("Etag").orElse(null));
        if (md5 != null) {
            String expected = HexFormat.of().formatHex(md5.digest());
            if (etag != null && !etag.equalsIgnoreCase(expected)) {
                store.delete(key);
                throw new StoreException(store.context("PUT", key), "ETag " + etag + " does not match the MD5 "
                        + expected + " of the bytes sent: the upload was corrupted and has been deleted",
                        answer.statusCode(), null);
            }
        }
        return new ObjectInfo(key, length, etag, null, options.userMetadata());
    }

    private void checkOpen() throws IOException {
        if (closed || aborted) {
            throw new IOException("upload of " + store.description().locate(key.bucket(), key.key()) + " is "
                    + (aborted ? "aborted" : "closed"));
        }
        if (failure != null) {
            throw failure;
        }
        if (single != null && single.answeredEarly()) {
            // The store answered before the body ended: it refused the upload (401, 404, 412, 413...).
            IOException refusal = single.failed(new IOException("the store ended the upload early"));
            abort();
            throw refusal;
        }
    }

    @Override
    public void abort() {
        if (aborted || result != null) {
            return;
        }
        aborted = true;
        if (single != null) {
            single.abort();
        }
        if (segments != null) {
            segments.abort();
        }
    }

    @Override
    public ObjectInfo result() {
        if (result == null) {
            throw new IllegalStateException("upload of " + key + " is not committed");
        }
        return result;
    }

    @Override
    public long peakBufferedBytes() {
        return peakBuffered.get();
    }

    private void hold(long n) {
        peakBuffered.accumulateAndGet(buffered.addAndGet(n), Math::max);
    }

    private void release(long n) {
        buffered.addAndGet(-n);
    }
}
