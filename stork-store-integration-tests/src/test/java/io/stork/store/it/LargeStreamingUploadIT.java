package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutOptions;
import io.stork.store.StoreApi;
import io.stork.store.StoreException;
import io.stork.store.UploadStream;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.swift.SwiftObjectStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A streaming upload of unknown length (512 MiB by default, {@code -Dstork.test.largeObjectMiB=N}) holds
 * no more memory than its configuration allows: checked by the stream's own accounting and by the JVM's
 * live heap after each garbage collection during the upload. The object is then read back through the
 * other API and its digest compared. Over Swift both as one chunked PUT and as a static large object in
 * 64 MiB segments: the latter is how objects past Swift's 5 GiB limit go up, which the campaign
 * {@code -Dstork.test.largeObjectMiB=6144 -Dtest=LargeStreamingUploadIT} shows (not in the default
 * test command: 6 GiB through a 2-core machine's store takes minutes).
 */
class LargeStreamingUploadIT {

    private static final int MIB = 1024 * 1024;
    private static final int SIZE_MIB = Integer.getInteger("stork.test.largeObjectMiB", 512);
    /** Swift's default max_file_size, the local store's. */
    private static final int SWIFT_SINGLE_OBJECT_LIMIT_MIB = 5 * 1024;
    /** Client internals beyond the stream's own buffers: HTTP buffers, SDK objects, test bookkeeping. */
    private static final long SLACK = 24L * MIB;

    /** How the object goes up. */
    enum Upload {
        S3_MULTIPART(StoreApi.S3), SWIFT_CHUNKED(StoreApi.SWIFT), SWIFT_SEGMENTED(StoreApi.SWIFT);

        final StoreApi api;

        Upload(StoreApi api) {
            this.api = api;
        }
    }

    @ParameterizedTest
    @EnumSource(Upload.class)
    void streamingPutOfUnknownLengthStaysWithinItsMemoryBound(Upload upload) throws Exception {
        StoreApi api = upload.api;
        long bound;
        ObjectStore writer;
        if (api == StoreApi.S3) {
            int partSize = 8 * MIB;
            int inFlight = 2;
            bound = (long) (inFlight + 1) * partSize;
            writer = new S3ObjectStore(TestStores.s3Config().withPartSize(partSize, inFlight));
        } else {
            int chunk = MIB;
            int buffers = 4;
            bound = (long) (buffers + 2) * chunk;
            writer = new SwiftObjectStore(TestStores.swiftConfig().withUploadBuffers(chunk, buffers)
                    .withSegmentSize(upload == Upload.SWIFT_SEGMENTED ? 64L * MIB : 0));
        }
        StoreApi otherApi = api == StoreApi.S3 ? StoreApi.SWIFT : StoreApi.S3;
        try (writer; ObjectStore reader = TestStores.open(otherApi)) {
            String bucket = TestStores.uniqueBucket("large-" + api.id());
            writer.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "large/object.bin");
            if (upload == Upload.SWIFT_CHUNKED && SIZE_MIB > SWIFT_SINGLE_OBJECT_LIMIT_MIB) {
                // Past the store's limit one chunked PUT is refused: the message says what to set.
                UploadStream refused = writer.create(key, PutOptions.defaults());
                assertThatThrownBy(() -> {
                    writeGenerated(refused, (long) SIZE_MIB * MIB);
                    refused.close();
                }).isInstanceOf(StoreException.class).hasMessageContaining("413")
                        .hasMessageContaining("fs.stork.swift.segment.size");
                assertThatThrownBy(() -> writer.head(key)).isInstanceOf(ObjectNotFoundException.class);
                return;
            }

            System.gc();
            long baseline = liveHeap();
            String written;
            long peakLive;
            UploadStream out = writer.create(key, PutOptions.defaults());
            try (HeapWatcher watcher = new HeapWatcher()) {
                written = writeGenerated(out, (long) SIZE_MIB * MIB);
                out.close();
                peakLive = watcher.peakLiveHeapAfterGc();
                assertThat(watcher.collections()).as("heap samples during the upload").isGreaterThan(3);
            }
            System.out.printf("%s streaming put of %d MiB: stream peak %.1f MiB, live heap growth %.1f MiB,"
                    + " bound %d MiB%n", upload, SIZE_MIB, out.peakBufferedBytes() / (double) MIB,
                    (peakLive - baseline) / (double) MIB, bound / MIB);
            assertThat(out.result().length()).isEqualTo((long) SIZE_MIB * MIB);
            assertThat(out.peakBufferedBytes()).as("stream's own peak").isLessThanOrEqualTo(bound);
            assertThat(peakLive - baseline).as("live heap growth during the upload (bound %d MiB + %d MiB slack)",
                    bound / MIB, SLACK / MIB).isLessThanOrEqualTo(bound + SLACK);

            try (ObjectStream in = reader.get(key, ByteRange.all())) {
                assertThat(in.info().length()).isEqualTo((long) SIZE_MIB * MIB);
                assertThat(digest(in)).as("bytes read back through the other API").isEqualTo(written);
            }
            if (upload == Upload.SWIFT_SEGMENTED) {
                assertThat(UploadCommitAndAbortIT.keys(writer, bucket + "_segments"))
                        .hasSize((int) ((SIZE_MIB + 63) / 64));
            }
            writer.delete(key);
            if (upload == Upload.SWIFT_SEGMENTED) {
                assertThat(UploadCommitAndAbortIT.keys(writer, bucket + "_segments")).as("segments deleted too").isEmpty();
            }
        }
    }

    /** Writes pseudo-random bytes in uneven slices, as a serialiser would, returning their MD5. */
    private static String writeGenerated(UploadStream out, long total) throws IOException, NoSuchAlgorithmException {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        Random random = new Random(42);
        byte[] block = new byte[MIB];
        random.nextBytes(block);
        long written = 0;
        int turn = 0;
        while (written < total) {
            block[turn % block.length] ^= (byte) turn; // every block differs
            int slice = (int) Math.min(total - written, 65_536 + Math.floorMod((long) turn * 7919, 200_000));
            int offset = (int) Math.floorMod((long) turn * 104_729, (long) (block.length - slice + 1)); // past 2^31 too
            out.write(block, offset, slice);
            md5.update(block, offset, slice);
            written += slice;
            turn++;
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static String digest(ObjectStream in) throws IOException, NoSuchAlgorithmException {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        byte[] buffer = new byte[MIB];
        int n;
        while ((n = in.read(buffer)) > 0) {
            md5.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static long liveHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Samples the live heap: a full collection every 200 ms, then the heap in use. (Usage after young
     * collections would count garbage already promoted; a full collection leaves only what is reachable.)
     */
    private static final class HeapWatcher implements AutoCloseable {
        private final AtomicLong peak = new AtomicLong();
        private final AtomicLong count = new AtomicLong();
        private final Thread sampler;
        private volatile boolean running = true;

        HeapWatcher() {
            sampler = new Thread(() -> {
                while (running) {
                    System.gc();
                    peak.accumulateAndGet(liveHeap(), Math::max);
                    count.incrementAndGet();
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        long peakLiveHeapAfterGc() {
            return peak.get();
        }

        long collections() {
            return count.get();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            sampler.interrupt();
            sampler.join();
        }
    }
}
