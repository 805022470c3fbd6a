package io.stork.store.swift;

import io.stork.store.CallType;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.OperationContext;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreException;
import io.stork.store.UploadStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A streaming upload over Swift: one PUT with chunked transfer encoding whose body is a
 * {@link ChunkPublisher}. Objects that end within the first buffer go as one PUT of known length instead.
 *
 * <p>Commit and abort: Swift stores a chunked PUT only when the terminating zero-length chunk arrives.
 * An abort or a failure errors the body, the HTTP client abandons the request mid-body and closes the
 * connection, and the store discards what it received (its log shows 499). Optionally the MD5 of the
 * bytes written is checked against the ETag the store returns; on a mismatch the object is deleted and
 * the upload fails.
 */
final class SwiftUploadStream extends UploadStream {

    private final SwiftObjectStore store;
    private final SwiftTransport transport;
    private final ObjectKey key;
    private final PutOptions options;
    private final MessageDigest md5;
    private final AtomicLong buffered = new AtomicLong();
    private final AtomicLong peakBuffered = new AtomicLong();

    private byte[] chunk;
    private int filled;
    private long length;
    private ChunkPublisher body;
    private CompletableFuture<HttpResponse<String>> response;
    private SwiftSession session;
    private boolean closed;
    private boolean aborted;
    private ObjectInfo result;

    SwiftUploadStream(SwiftObjectStore store, SwiftTransport transport, ObjectKey key, PutOptions options) {
        this.store = store;
        this.transport = transport;
        this.key = key;
        this.options = options;
        this.md5 = store.config().verifyUploads() ? newMd5() : null;
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

    @Override
    public void write(byte[] data, int offset, int count) throws IOException {
        checkOpen();
        if (md5 != null) {
            md5.update(data, offset, count);
        }
        length += count;
        while (count > 0) {
            int n = Math.min(count, chunk.length - filled);
            System.arraycopy(data, offset, chunk, filled, n);
            filled += n;
            offset += n;
            count -= n;
            if (filled == chunk.length) {
                sendChunk(false);
            }
        }
    }

    private void sendChunk(boolean last) throws IOException {
        if (body == null) {
            startChunkedPut();
        }
        ByteBuffer data = ByteBuffer.wrap(chunk, 0, filled);
        if (filled < chunk.length) {
            release(chunk.length - filled);
        }
        chunk = null;
        try {
            body.put(data);
        } catch (IOException e) {
            throw failed(e);
        }
        if (!last) {
            chunk = newChunk();
            filled = 0;
        }
    }

    private void startChunkedPut() throws IOException {
        body = new ChunkPublisher(store.config().uploadBuffers(), this::release);
        session = transport.session();
        HttpRequest.Builder request = store.objectRequest(session, key).PUT(body);
        store.putHeaders(request, options);
        response = transport.sendStreaming(request.build());
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        checkOpen();
        closed = true;
        if (body == null) {
            byte[] bytes = Arrays.copyOf(chunk, filled);
            release(chunk.length);
            chunk = null;
            result = store.put(key, PutBody.of(bytes), options);
            return;
        }
        if (filled > 0) {
            sendChunk(true);
        } else {
            release(chunk.length);
            chunk = null;
        }
        try {
            body.finish();
        } catch (IOException e) {
            throw failed(e);
        }
        result = awaitCommit();
    }

    private ObjectInfo awaitCommit() throws IOException {
        OperationContext context = store.context("PUT", key);
        HttpResponse<String> answer;
        try {
            answer = response.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort();
            throw new InterruptedIOException(context + ": interrupted");
        } catch (ExecutionException e) {
            transport.statistics().recordCall(CallType.PUT, body.bytesConsumed(), 0, true);
            throw e.getCause() instanceof IOException io ? SwiftErrors.fromTransport(context, io)
                    : new StoreException(context, "upload failed: " + e.getCause(), 0, e.getCause());
        }
        transport.record(CallType.PUT, length, answer);
        if (answer.statusCode() == 401) {
            transport.invalidate(session);
        }
        if (answer.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, answer.statusCode(), answer.body(), options.ifNotExists());
        }
        String etag = ObjectInfo.unquoteEtag(answer.headers().firstValue("Etag").orElse(null));
        if (md5 != null) {
            String expected = HexFormat.of().formatHex(md5.digest());
            if (etag != null && !etag.equalsIgnoreCase(expected)) {
                store.delete(key);
                throw new StoreException(context, "ETag " + etag + " does not match the MD5 " + expected
                        + " of the bytes sent: the upload was corrupted and has been deleted", answer.statusCode(), null);
            }
        }
        return new ObjectInfo(key, length, etag, null, options.userMetadata());
    }

    /** Aborts, then reports the most telling reason: the store's answer, the transport failure, or the cause. */
    private IOException failed(IOException cause) {
        abort();
        OperationContext context = store.context("PUT", key);
        if (response != null && response.isDone()) {
            try {
                HttpResponse<String> answer = response.join();
                transport.record(CallType.PUT, body.bytesConsumed(), answer);
                if (answer.statusCode() >= 300) {
                    return SwiftErrors.fromStatus(context, answer.statusCode(), answer.body(), options.ifNotExists());
                }
            } catch (CompletionException e) {
                transport.statistics().recordCall(CallType.PUT, body.bytesConsumed(), 0, true);
                if (e.getCause() instanceof IOException io && !String.valueOf(io.getMessage()).contains("aborted")) {
                    return SwiftErrors.fromTransport(context, io);
                }
            }
        }
        return new StoreException(context, "upload failed: " + cause.getMessage(), 0, cause);
    }

    private void checkOpen() throws IOException {
        if (closed || aborted) {
            throw new IOException("upload of " + store.description().locate(key.bucket(), key.key()) + " is "
                    + (aborted ? "aborted" : "closed"));
        }
        if (response != null && response.isDone()) {
            // The store answered before the body ended: it refused the upload (401, 404, 412, 413...).
            throw failed(new IOException("the store ended the upload early"));
        }
    }

    @Override
    public void abort() {
        if (aborted || result != null) {
            return;
        }
        aborted = true;
        if (body != null) {
            body.fail(new IOException("upload aborted"));
            try {
                response.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException expected) {
                // The abandoned request fails: that is the abort.
            }
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
