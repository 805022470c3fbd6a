package io.stork.store.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.memory.InMemoryObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The block cache over the in-memory store: calls and bytes counted at the store, bytes compared. */
class CachedReadsTest {

    private static final int BLOCK = 4096;

    @TempDir
    Path dir;
    private InMemoryObjectStore memory;
    private CachingObjectStore store;
    private final ObjectKey key = ObjectKey.of("b", "data/part-0");
    private byte[] content;
    private String etag;

    @BeforeEach
    void setUp() throws IOException {
        memory = new InMemoryObjectStore();
        memory.createBucket("b");
        store = new CachingObjectStore(memory, new BlockCacheSettings(dir, BLOCK, 1 << 20));
        content = random(10 * BLOCK + 123, 1);
        etag = memory.put(key, PutBody.of(content), PutOptions.defaults()).etag();
    }

    /** The cache's writer is done before the directory is removed. */
    @org.junit.jupiter.api.AfterEach
    void tearDown() throws IOException {
        store.flush();
        store.close();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private byte[] read(ByteRange range) throws IOException {
        return read(range, etag);
    }

    private byte[] read(ByteRange range, String version) throws IOException {
        byte[] got;
        try (ObjectStream in = store.get(key, range, ReadCondition.ifMatch(version))) {
            got = in.readAllBytes();
        }
        store.flush(); // blocks are written by the cache's own thread: wait for them, as the next read expects
        return got;
    }

    private byte[] expected(long start, long length) {
        return Arrays.copyOfRange(content, (int) start, (int) Math.min(content.length, start + length));
    }

    private StatisticsSnapshot calls() {
        return memory.statistics().snapshot();
    }

    @Test
    void aRepeatedReadCostsNoCallAndAColdOneNoExtraByte() throws IOException {
        StatisticsSnapshot before = calls();
        assertThat(read(ByteRange.of(5000, 20000))).isEqualTo(expected(5000, 20000));
        StatisticsSnapshot cold = calls().minus(before);
        assertThat(cold.calls(CallType.GET)).isEqualTo(1);
        assertThat(cold.totalBytesReceived()).as("nothing widened to blocks").isEqualTo(20000);

        assertThat(read(ByteRange.of(5000, 20000))).isEqualTo(expected(5000, 20000));
        assertThat(read(ByteRange.of(9000, 100))).isEqualTo(expected(9000, 100));
        assertThat(calls().minus(before).calls(CallType.GET)).as("served from the cache").isEqualTo(1);
        BlockCacheStatistics.Snapshot stats = store.cacheStatistics().snapshot();
        assertThat(stats.bytesFromCache()).isEqualTo(20100);
        assertThat(stats.bytesFromStore()).isEqualTo(20000);
    }

    @Test
    void aReadPartlyCachedServesItsStartFromTheCacheThenOneGetAndTheRunsJoin() throws IOException {
        assertThat(read(ByteRange.of(0, 100))).isEqualTo(expected(0, 100));
        StatisticsSnapshot before = calls();
        assertThat(read(ByteRange.of(50, 3 * BLOCK))).isEqualTo(expected(50, 3 * BLOCK));
        StatisticsSnapshot second = calls().minus(before);
        assertThat(second.calls(CallType.GET)).isEqualTo(1);
        assertThat(second.totalBytesReceived()).isEqualTo(3 * BLOCK - 50);
        before = calls();
        assertThat(read(ByteRange.all())).isEqualTo(content);
        assertThat(read(ByteRange.of(0, 3 * BLOCK + 50))).isEqualTo(expected(0, 3 * BLOCK + 50));
        assertThat(read(ByteRange.from(7 * BLOCK + 5))).isEqualTo(expected(7 * BLOCK + 5, content.length));
        assertThat(calls().minus(before).calls(CallType.GET)).as("the whole-object read only").isEqualTo(1);
    }

    @Test
    void aChangedObjectIsNeverServedFromTheOldVersionsBlocks() throws IOException {
        assertThat(read(ByteRange.all())).isEqualTo(content);
        byte[] changed = random(content.length, 2);
        String newEtag = memory.put(key, PutBody.of(changed), PutOptions.defaults()).etag();
        assertThat(newEtag).isNotEqualTo(etag);
        StatisticsSnapshot before = calls();
        try (ObjectStream in = store.get(key, ByteRange.all(), ReadCondition.ifMatch(newEtag))) {
            assertThat(in.readAllBytes()).isEqualTo(changed);
            assertThat(in.info().etag()).isEqualTo(newEtag);
        }
        store.flush();
        assertThat(calls().minus(before).calls(CallType.GET)).isEqualTo(1);
        // A read without a version goes to the store: the cache cannot know what is current.
        assertThat(store.get(key, ByteRange.all()).readAllBytes()).isEqualTo(changed);
        // The old version's bytes are that version's: a read pinned to it gets exactly them, as the manifest said.
        assertThat(read(ByteRange.of(0, 10))).isEqualTo(expected(0, 10));
        // Not cached and no longer in the store: the store's answer.
        assertThatThrownBy(() -> read(ByteRange.of(0, 10), "\"no-such-version\"".replace("\"", "")))
                .isInstanceOf(ObjectChangedException.class);
    }

    @Test
    void theInfoOfACachedReadIsTheObjectsAsItsGetReturnedIt() throws IOException {
        ObjectKey withMeta = ObjectKey.of("b", "meta");
        String tag = memory.put(withMeta, PutBody.of(content), PutOptions.defaults().withUserMetadata(java.util.Map.of("k", "v")))
                .etag();
        ObjectInfo cold;
        try (ObjectStream in = store.get(withMeta, ByteRange.of(10, 10), ReadCondition.ifMatch(tag))) {
            cold = in.info();
            in.readAllBytes();
        }
        store.flush();
        try (ObjectStream in = store.get(withMeta, ByteRange.of(10, 10), ReadCondition.ifMatch(tag))) {
            assertThat(in.info().length()).isEqualTo(cold.length());
            assertThat(in.info().userMetadata()).isEqualTo(cold.userMetadata()).containsEntry("k", "v");
            assertThat(in.info().lastModified()).isEqualTo(cold.lastModified());
            assertThat(in.rangeStart()).isEqualTo(10);
            assertThat(in.rangeLength()).isEqualTo(10);
        }
    }

    @Test
    void damagedTornAndHalfWrittenFilesAreNeverServed() throws IOException {
        assertThat(read(ByteRange.all())).isEqualTo(content);
        List<Path> blocks;
        try (Stream<Path> files = Files.list(dir)) {
            blocks = files.sorted().toList();
        }
        assertThat(blocks).hasSize(11);
        byte[] flipped = Files.readAllBytes(blocks.get(0));
        flipped[flipped.length / 2] ^= 1;
        Files.write(blocks.get(0), flipped);
        byte[] torn = Files.readAllBytes(blocks.get(1));
        Files.write(blocks.get(1), Arrays.copyOf(torn, torn.length - 100));
        // A process killed mid-write leaves a temporary file, never a block under its name.
        Files.write(dir.resolve(blocks.get(2).getFileName() + ".dead.tmp"), new byte[10]);

        StatisticsSnapshot before = calls();
        assertThat(read(ByteRange.all())).isEqualTo(content);
        // The stream goes to the store at the first damaged block it meets and stays there; a damaged file
        // further on is then replaced whole by the block read anew, without being read.
        assertThat(store.cacheStatistics().snapshot().damaged()).as("the flipped, and the torn if met first")
                .isBetween(1L, 2L);
        assertThat(calls().minus(before).calls(CallType.GET)).isEqualTo(1);
        store.flush();
        assertThat(Files.size(blocks.get(1))).as("the torn file replaced whole").isEqualTo(torn.length);
        before = calls();
        assertThat(read(ByteRange.all())).as("refilled").isEqualTo(content);
        assertThat(calls().minus(before).calls(CallType.GET)).isZero();
    }

    @Test
    void theBoundHoldsAndTheLeastRecentlyUsedGoFirst() throws IOException {
        long bound = 6L * (BLOCK + 100);
        CachingObjectStore small = new CachingObjectStore(memory, new BlockCacheSettings(dir.resolve("small"), BLOCK,
                bound));
        ObjectKey hot = ObjectKey.of("b", "hot");
        String hotTag = memory.put(hot, PutBody.of(random(BLOCK, 3)), PutOptions.defaults()).etag();
        List<String> tags = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ObjectKey k = ObjectKey.of("b", "cold-" + i);
            tags.add(memory.put(k, PutBody.of(random(BLOCK, 10 + i)), PutOptions.defaults()).etag());
        }
        for (int i = 0; i < 20; i++) {
            small.get(hot, ByteRange.all(), ReadCondition.ifMatch(hotTag)).readAllBytes();
            try (ObjectStream in = small.get(ObjectKey.of("b", "cold-" + i), ByteRange.all(),
                    ReadCondition.ifMatch(tags.get(i)))) {
                in.readAllBytes();
            }
            small.flush();
            assertThat(directorySize(dir.resolve("small"))).isLessThanOrEqualTo(bound);
        }
        assertThat(small.cacheStatistics().snapshot().evictions()).isPositive();
        StatisticsSnapshot before = calls();
        small.get(hot, ByteRange.all(), ReadCondition.ifMatch(hotTag)).readAllBytes();
        assertThat(calls().minus(before).calls(CallType.GET)).as("the hot block stayed").isZero();
        small.get(ObjectKey.of("b", "cold-0"), ByteRange.all(), ReadCondition.ifMatch(tags.get(0))).readAllBytes();
        assertThat(calls().minus(before).calls(CallType.GET)).as("the oldest went").isEqualTo(1);
        small.flush();
        small.close();
    }

    /**
     * The eviction policies in the cache itself: blocks queries came back to, then a one-off scan larger
     * than the cache. Segmented LRU evicts the scan's own blocks first; LRU lets the scan push the others out.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = EvictionPolicy.class, names = {"LRU", "SLRU"})
    void aOneOffScanPushesOutWhatQueriesComeBackToOnlyUnderLru(EvictionPolicy policy) throws IOException {
        long bound = 8L * (BLOCK + 100);
        CachingObjectStore small = new CachingObjectStore(memory, new BlockCacheSettings(dir.resolve(policy.name()),
                BLOCK, bound, policy));
        ObjectKey hot = ObjectKey.of("b", "hot");
        String hotTag = memory.put(hot, PutBody.of(random(3 * BLOCK, 4)), PutOptions.defaults()).etag();
        for (int i = 0; i < 2; i++) { // two queries read the hot blocks
            small.get(hot, ByteRange.all(), ReadCondition.ifMatch(hotTag)).readAllBytes();
            small.flush();
        }
        ObjectKey scanned = ObjectKey.of("b", "one-off");
        String scannedTag = memory.put(scanned, PutBody.of(random(12 * BLOCK, 5)), PutOptions.defaults()).etag();
        try (ObjectStream in = small.get(scanned, ByteRange.all(), ReadCondition.ifMatch(scannedTag))) {
            in.readAllBytes();
        }
        small.flush();
        assertThat(directorySize(dir.resolve(policy.name()))).isLessThanOrEqualTo(bound);
        StatisticsSnapshot before = calls();
        assertThat(small.get(hot, ByteRange.all(), ReadCondition.ifMatch(hotTag)).readAllBytes())
                .isEqualTo(memory.get(hot, ByteRange.all()).readAllBytes());
        long fetched = calls().minus(before).calls(CallType.GET) - 1; // the comparison's own GET
        if (policy == EvictionPolicy.SLRU) {
            assertThat(fetched).as("the hot blocks stayed").isZero();
        } else {
            assertThat(fetched).as("the scan pushed the hot blocks out").isEqualTo(1);
        }
        small.close();
    }

    private static long directorySize(Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @Test
    void twoCachesOnOneDirectoryShareBlocksAsTwoExecutorsWould() throws IOException {
        assertThat(read(ByteRange.of(100, 5 * BLOCK))).isEqualTo(expected(100, 5 * BLOCK));
        CachingObjectStore other = new CachingObjectStore(memory, new BlockCacheSettings(dir, BLOCK, 1 << 20));
        StatisticsSnapshot before = calls();
        try (ObjectStream in = other.get(key, ByteRange.of(200, 4 * BLOCK), ReadCondition.ifMatch(etag))) {
            assertThat(in.readAllBytes()).isEqualTo(expected(200, 4 * BLOCK));
        }
        assertThat(calls().minus(before).calls(CallType.GET)).isZero();
        other.flush();
        other.close();
    }

    @Test
    void concurrentReadersOfOverlappingRangesAlwaysGetTheRightBytes() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                Random random = new Random(t);
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        int start = random.nextInt(content.length);
                        int length = 1 + random.nextInt(3 * BLOCK);
                        try (ObjectStream in = store.get(key, ByteRange.of(start, length), ReadCondition.ifMatch(etag))) {
                            byte[] got = random.nextBoolean() ? in.readAllBytes() : in.readNBytes(length / 2);
                            assertThat(got).isEqualTo(Arrays.copyOfRange(expected(start, length), 0, got.length));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        store.flush();
        assertThat(store.cacheStatistics().snapshot().hits()).isPositive();
        assertThat(read(ByteRange.all())).isEqualTo(content);
    }

    @Test
    void aReadNamingNoVersionIsRevalidatedWithOneCallAndNoBody() throws IOException {
        StatisticsSnapshot before = calls();
        assertThat(store.get(key, ByteRange.all()).readAllBytes()).isEqualTo(content);
        store.flush();
        assertThat(calls().minus(before).totalBytesReceived()).isEqualTo(content.length);
        before = calls();
        try (ObjectStream in = store.get(key, ByteRange.of(100, 2 * BLOCK))) {
            assertThat(in.readAllBytes()).isEqualTo(expected(100, 2 * BLOCK));
            assertThat(in.info().etag()).isEqualTo(etag);
        }
        StatisticsSnapshot unchanged = calls().minus(before);
        assertThat(unchanged.calls(CallType.GET)).as("the If-None-Match").isEqualTo(1);
        assertThat(unchanged.totalBytesReceived()).isZero();
        assertThat(store.cacheStatistics().snapshot().revalidated()).isEqualTo(1);

        byte[] changed = random(content.length, 7);
        String newEtag = memory.put(key, PutBody.of(changed), PutOptions.defaults()).etag();
        before = calls();
        try (ObjectStream in = store.get(key, ByteRange.all())) {
            assertThat(in.readAllBytes()).isEqualTo(changed);
            assertThat(in.info().etag()).isEqualTo(newEtag);
        }
        store.flush();
        assertThat(calls().minus(before).calls(CallType.GET)).isEqualTo(1);
        before = calls();
        assertThat(store.get(key, ByteRange.of(5, 10)).readAllBytes()).isEqualTo(Arrays.copyOfRange(changed, 5, 15));
        assertThat(calls().minus(before).totalBytesReceived()).as("the new version is cached").isZero();
    }

    @Test
    void aCacheWhoseDirectoryWasRemovedMakesItAgain() throws IOException {
        read(ByteRange.all());
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        assertThat(read(ByteRange.all())).isEqualTo(content);
        StatisticsSnapshot before = calls();
        assertThat(read(ByteRange.all())).isEqualTo(content);
        assertThat(calls().minus(before).calls(CallType.GET)).isZero();
    }

    @Test
    void aStreamSkipsWithinTheCacheWithoutACall() throws IOException {
        read(ByteRange.all());
        StatisticsSnapshot before = calls();
        try (ObjectStream in = store.get(key, ByteRange.from(10), ReadCondition.ifMatch(etag))) {
            assertThat(in.skip(3 * BLOCK)).isEqualTo(3 * BLOCK);
            assertThat(in.readNBytes(50)).isEqualTo(expected(10 + 3 * BLOCK, 50));
        }
        assertThat(calls().minus(before).calls(CallType.GET)).isZero();
    }
}
