package io.stork.store.swift;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The body of a chunked upload: hands the writer's filled buffers to the HTTP client as they come, without
 * copying, and only as fast as the client asks for them (reactive-streams demand). The writer blocks while
 * {@code capacity} buffers wait, so an upload holds at most {@code capacity} queued buffers plus the one
 * being filled and the one on the wire. Either side can fail the upload: an abort or a writer failure
 * errors the body, so the client abandons the request mid-body and the store discards it; a client that
 * cancels (connection lost, early answer) makes the writer's next put fail.
 *
 * <p>It can be subscribed to once: a client that tried to re-send the request would need bytes that are
 * gone, so a second subscription fails instead of sending a body without its beginning.
 */
final class ChunkPublisher implements HttpRequest.BodyPublisher {

    private static final ByteBuffer END = ByteBuffer.allocate(0);

    private final int capacity;
    private final java.util.function.LongConsumer released;
    private long inClient;
    private final Deque<ByteBuffer> queue = new ArrayDeque<>();
    private final AtomicLong demand = new AtomicLong();
    private final AtomicInteger drains = new AtomicInteger();
    private final AtomicLong consumed = new AtomicLong();
    private volatile Flow.Subscriber<? super ByteBuffer> subscriber;
    private volatile IOException failure;
    private volatile boolean done;

    /**
     * @param released told the size of each buffer the HTTP client is done with (it asked for the next
     *                 one, or the body ended), for memory accounting
     */
    ChunkPublisher(int capacity, java.util.function.LongConsumer released) {
        this.capacity = capacity;
        this.released = released;
    }

    @Override
    public long contentLength() {
        return -1; // unknown: the client uses chunked transfer encoding
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> s) {
        synchronized (this) {
            if (subscriber != null) {
                s.onSubscribe(new Flow.Subscription() {
                    @Override
                    public void request(long n) {
                    }

                    @Override
                    public void cancel() {
                    }
                });
                s.onError(new IOException("a streaming upload cannot be sent twice"));
                return;
            }
            subscriber = s;
        }
        s.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                if (n <= 0) {
                    fail(new IOException("HTTP client requested " + n + " buffers"));
                    return;
                }
                demand.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
                drain();
            }

            @Override
            public void cancel() {
                fail(new IOException("the HTTP client stopped sending the upload (connection lost or early answer)"));
            }
        });
        drain();
    }

    /** Queues a filled buffer; blocks while {@code capacity} buffers wait. The publisher owns it afterwards. */
    void put(ByteBuffer chunk) throws IOException {
        synchronized (this) {
            while (queue.size() >= capacity && failure == null) {
                try {
                    wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while uploading");
                }
            }
            if (failure != null) {
                throw failure;
            }
            queue.addLast(chunk);
        }
        drain();
    }

    /** Ends the body: the client sends the terminating chunk once the queue is drained. */
    void finish() throws IOException {
        put(END);
    }

    /** Errors the body, so the request is abandoned mid-body, and unblocks the writer. */
    void fail(IOException cause) {
        synchronized (this) {
            if (failure == null) {
                failure = cause;
            }
            queue.clear();
            notifyAll();
        }
        drain();
    }

    /** Bytes handed to the HTTP client so far. */
    long bytesConsumed() {
        return consumed.get();
    }

    private void releaseInClient() {
        if (inClient > 0) {
            released.accept(inClient);
            inClient = 0;
        }
    }

    /** Delivers queued buffers while there is demand; one thread at a time, never re-entrantly. */
    private void drain() {
        if (drains.getAndIncrement() != 0) {
            return;
        }
        do {
            Flow.Subscriber<? super ByteBuffer> s = subscriber;
            if (s != null && !done) {
                deliver(s);
            }
        } while (drains.decrementAndGet() != 0);
    }

    private void deliver(Flow.Subscriber<? super ByteBuffer> s) {
        while (true) {
            ByteBuffer next;
            IOException error;
            synchronized (this) {
                error = failure;
                next = error == null && demand.get() > 0 ? queue.pollFirst() : null;
                if (next != null) {
                    // The client asked for more: it is done with the buffer it had. Account for that
                    // before the writer, woken here, allocates its next one.
                    releaseInClient();
                    notifyAll();
                }
            }
            if (error != null) {
                done = true;
                releaseInClient();
                s.onError(error);
                return;
            }
            if (next == null) {
                return;
            }
            if (next == END) {
                done = true;
                s.onComplete();
                return;
            }
            inClient = next.remaining();
            demand.decrementAndGet();
            consumed.addAndGet(next.remaining());
            s.onNext(next);
        }
    }
}
