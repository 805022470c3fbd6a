package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ChunkPublisherTest {

    /** A subscriber that asks for one buffer at a time, like the JDK's HTTP/1.1 body writer. */
    private static final class OneAtATime implements Flow.Subscriber<ByteBuffer> {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final CompletableFuture<byte[]> done = new CompletableFuture<>();
        Flow.Subscription subscription;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(ByteBuffer item) {
            byte[] b = new byte[item.remaining()];
            item.get(b);
            bytes.writeBytes(b);
            subscription.request(1);
        }

        @Override
        public void onError(Throwable t) {
            done.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            done.complete(bytes.toByteArray());
        }
    }

    @Test
    void deliversBuffersInOrderAndCompletes() throws Exception {
        AtomicLong released = new AtomicLong();
        ChunkPublisher publisher = new ChunkPublisher(2, released::addAndGet);
        OneAtATime subscriber = new OneAtATime();
        publisher.subscribe(subscriber);
        for (int i = 0; i < 10; i++) {
            publisher.put(ByteBuffer.wrap(new byte[] {(byte) i, (byte) i}));
        }
        publisher.finish();
        byte[] bytes = subscriber.done.get(5, TimeUnit.SECONDS);
        assertThat(bytes).hasSize(20);
        assertThat(bytes[19]).isEqualTo((byte) 9);
        assertThat(released).hasValue(20);
        assertThat(publisher.bytesConsumed()).isEqualTo(20);
    }

    @Test
    void theWriterBlocksWhileTheQueueIsFullAndAFailureUnblocksIt() throws Exception {
        ChunkPublisher publisher = new ChunkPublisher(1, n -> { });
        publisher.put(ByteBuffer.wrap(new byte[4])); // nobody subscribed: the queue is now full
        CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> {
            try {
                publisher.put(ByteBuffer.wrap(new byte[4]));
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(200);
        assertThat(blocked).isNotDone();
        publisher.fail(new IOException("upload aborted"));
        assertThatThrownBy(() -> blocked.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("upload aborted");
    }

    @Test
    void aFailureErrorsTheBodyAndASecondSubscriptionIsRefused() throws Exception {
        ChunkPublisher publisher = new ChunkPublisher(2, n -> { });
        OneAtATime first = new OneAtATime();
        publisher.subscribe(first);
        publisher.put(ByteBuffer.wrap(new byte[3]));
        publisher.fail(new IOException("upload aborted"));
        assertThatThrownBy(() -> first.done.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("upload aborted");

        OneAtATime second = new OneAtATime();
        publisher.subscribe(second);
        assertThatThrownBy(() -> second.done.get(5, TimeUnit.SECONDS))
                .hasRootCauseMessage("a streaming upload cannot be sent twice");
    }
}
