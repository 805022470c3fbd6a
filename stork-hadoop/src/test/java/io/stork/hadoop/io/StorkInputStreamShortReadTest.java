package io.stork.hadoop.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.store.ByteRange;
import io.stork.store.ForwardingObjectStore;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.memory.InMemoryObjectStore;
import java.io.FilterInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A socket hands over what has arrived, often a fraction of a read's request (Hadoop's unbuffer contract
 * test saw 181 of 512 bytes once). The stream must still fill each read from its open GET, without a
 * second GET, and stop at the end of a ranged GET rather than run into the next one.
 */
class StorkInputStreamShortReadTest {

    private static final ObjectKey KEY = ObjectKey.of("b", "data/part-0");

    @Test
    void eachReadIsFilledFromTheOpenGetEvenWhenTheSocketTrickles() throws IOException {
        byte[] data = randomBytes(4 * 1024 * 1024 + 17);
        AtomicInteger gets = new AtomicInteger();
        ObjectStore store = tricklingStore(data, gets);
        ReadPolicy noPrefetch = new ReadPolicy(1024 * 1024, 0, 0);
        try (StorkInputStream in = StorkInputStream.open(store, KEY, "stork://b/data/part-0", noPrefetch,
                null, Runnable::run, -1, null)) {
            byte[] buffer = new byte[512];
            assertThat(in.read(buffer, 0, 512)).isEqualTo(512);
            assertThat(buffer).isEqualTo(Arrays.copyOfRange(data, 0, 512));

            in.unbuffer();
            assertThat(in.read(buffer, 0, 512)).as("after unbuffer, a new GET still fills the read").isEqualTo(512);
            assertThat(buffer).isEqualTo(Arrays.copyOfRange(data, 512, 1024));

            in.seek(data.length - 100);
            byte[] tail = new byte[512];
            assertThat(in.read(tail, 0, 512)).as("a read past the end returns what is left").isEqualTo(100);
            assertThat(Arrays.copyOf(tail, 100)).isEqualTo(Arrays.copyOfRange(data, data.length - 100, data.length));
            assertThat(in.read(tail, 0, 512)).isEqualTo(-1);
        }
        assertThat(gets.get()).as("one GET at open, one after unbuffer, one after the seek").isEqualTo(3);
    }

    @Test
    void aReadStopsAtTheEndOfARangedGet() throws IOException {
        byte[] data = randomBytes(2 * 1024 * 1024);
        AtomicInteger gets = new AtomicInteger();
        ObjectStore store = tricklingStore(data, gets);
        ReadPolicy noPrefetch = new ReadPolicy(1024 * 1024, 0, 0);
        try (StorkInputStream in = StorkInputStream.open(store, KEY, "stork://b/data/part-0", noPrefetch,
                null, Runnable::run, data.length, null)) {
            in.seek(1_000_000);
            in.read(new byte[10], 0, 10);
            in.seek(100); // a backward seek: random mode, ranged GETs of at least RANDOM_READ_MIN
            byte[] buffer = new byte[(int) StorkInputStream.RANDOM_READ_MIN + 1000];
            int n = in.read(buffer, 0, 100);
            assertThat(n).isEqualTo(100);
            int rest = in.read(buffer, 0, buffer.length);
            assertThat(rest).as("the ranged GET's remaining bytes, not more")
                    .isEqualTo((int) StorkInputStream.RANDOM_READ_MIN - 100);
            assertThat(Arrays.copyOf(buffer, rest)).isEqualTo(Arrays.copyOfRange(data, 200, 200 + rest));
        }
    }

    private static byte[] randomBytes(int size) {
        byte[] data = new byte[size];
        new Random(7).nextBytes(data);
        return data;
    }

    /** The in-memory store, with every GET's body handing over at most 97 bytes per read and GETs counted. */
    private static ObjectStore tricklingStore(byte[] data, AtomicInteger gets) throws IOException {
        InMemoryObjectStore memory = new InMemoryObjectStore();
        memory.createBucket("b");
        memory.put(KEY, PutBody.of(data), PutOptions.defaults());
        return new ForwardingObjectStore(memory) {
            @Override
            public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException {
                gets.incrementAndGet();
                ObjectStream s = super.get(key, range, condition);
                return new ObjectStream(new FilterInputStream(s) {
                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        return super.read(b, off, Math.min(len, 97));
                    }
                }, s.info(), s.rangeStart(), s.rangeLength());
            }
        };
    }
}
