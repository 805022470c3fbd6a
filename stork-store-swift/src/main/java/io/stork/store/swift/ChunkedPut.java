package io.stork.store.swift;

import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.OperationContext;
import io.stork.store.PutOptions;
import io.stork.store.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.LongConsumer;

/**
 * One PUT with chunked transfer encoding whose body the caller streams buffer by buffer: a whole object,
 * or one segment of a static large object. Swift stores it only when the terminating chunk arrives, so
 * {@link #abort()} (the body errors, the client abandons the request mid-body) leaves nothing.
 */
final class ChunkedPut {

    private final SwiftObjectStore store;
    private final SwiftTransport transport;
    private final ObjectKey key;
    private final PutOptions options;
    private final ChunkPublisher body;
    private final SwiftSession session;
    private final CompletableFuture<HttpResponse<String>> response;
    private long sent;

    private ChunkedPut(SwiftObjectStore store, SwiftTransport transport, ObjectKey key, PutOptions options,
                       int buffers, LongConsumer released) throws IOException {
        this.store = store;
        this.transport = transport;
        this.key = key;
        this.options = options;
        this.body = new ChunkPublisher(buffers, released);
        this.session = transport.session();
        HttpRequest.Builder request = store.objectRequest(session, key).PUT(body);
        store.putHeaders(request, options);
        this.response = transport.sendStreaming(request.build());
    }

    /** Starts the request; its body follows through {@link #put}. */
    static ChunkedPut start(SwiftObjectStore store, SwiftTransport transport, ObjectKey key, PutOptions options,
                            int buffers, LongConsumer released) throws IOException {
        return new ChunkedPut(store, transport, key, options, buffers, released);
    }

    ObjectKey key() {
        return key;
    }

    /** Queues a buffer (owned by the request afterwards); fails with the store's answer if it refused early. */
    void put(ByteBuffer data) throws IOException {
        if (response.isDone()) {
            // The store answered before the body ended: it refused the upload (401, 404, 412, 413...).
            throw failed(new IOException("the store ended the upload early"));
        }
        int n = data.remaining();
        if (n == 0) {
            return; // an empty chunk is the end of the body on the wire
        }
        try {
            body.put(data);
        } catch (IOException e) {
            throw failed(e);
        }
        sent += n;
    }

    /** Whether the store has already answered (only a refusal comes before the body ends). */
    boolean answeredEarly() {
        return response.isDone();
    }

    /** Sends the terminating chunk and waits for the store's answer: the object (or segment) exists after it. */
    HttpResponse<String> finish() throws IOException {
        try {
            body.finish();
        } catch (IOException e) {
            throw failed(e);
        }
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
        transport.record(CallType.PUT, sent, answer);
        if (answer.statusCode() == 401) {
            transport.invalidate(session);
        }
        if (answer.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, answer.statusCode(), answer.body(), options.ifNotExists());
        }
        return answer;
    }

    /** Abandons the request mid-body and waits until the client has let go of it. Idempotent. */
    void abort() {
        body.fail(new IOException("upload aborted"));
        try {
            response.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException expected) {
            // The abandoned request fails: that is the abort.
        }
    }

    /** Aborts, then reports the most telling reason: the store's answer, the transport failure, or the cause. */
    IOException failed(IOException cause) {
        abort();
        OperationContext context = store.context("PUT", key);
        if (response.isDone()) {
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
}
