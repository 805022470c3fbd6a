package io.stork.store.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.memory.InMemoryObjectStore;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs fill one cache directory at once, under a bound that makes them evict each other's blocks, and
 * are killed (SIGKILL) mid-stream; a third process then reads every object through the directory: every
 * byte it gets is the object's, no block file under its name is damaged, and what they cached is used.
 */
class BlockCacheKillTest {

    @TempDir
    Path dir;

    private Process child(long bound, long seed) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), KilledWriterChild.class.getName(),
                dir.toString(), Long.toString(bound), Long.toString(seed)).redirectErrorStream(true).start();
    }

    private static void awaitReady(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.equals("READY")) {
                return;
            }
        }
        throw new AssertionError("the writer process ended before it cached anything");
    }

    @Test
    void writersKilledMidWriteLeaveNoTornBlock() throws Exception {
        long bound = 40L * KilledWriterChild.BLOCK;
        for (int round = 0; round < 3; round++) {
            List<Process> writers = new ArrayList<>(List.of(child(bound, 2L * round), child(bound, 2L * round + 1)));
            for (Process p : writers) {
                awaitReady(p);
            }
            Thread.sleep(150 + 100L * round);
            for (Process p : writers) {
                p.destroyForcibly(); // SIGKILL: no shutdown hook, no close
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
        }
        long blockFiles;
        try (var files = Files.list(dir)) {
            blockFiles = files.filter(f -> !f.getFileName().toString().endsWith(".tmp")).count();
        }
        assertThat(blockFiles).as("blocks left by the killed writers").isPositive();

        InMemoryObjectStore memory = new InMemoryObjectStore();
        memory.createBucket("b");
        String[] etags = new String[KilledWriterChild.OBJECTS];
        for (int i = 0; i < etags.length; i++) {
            etags[i] = memory.put(ObjectKey.of("b", "o" + i), PutBody.of(KilledWriterChild.content(i)),
                    PutOptions.defaults()).etag();
        }
        CachingObjectStore reader = new CachingObjectStore(memory, new BlockCacheSettings(dir, KilledWriterChild.BLOCK,
                1L << 30));
        long before = memory.statistics().snapshot().totalBytesReceived();
        long total = 0;
        for (int i = 0; i < etags.length; i++) {
            byte[] expected = KilledWriterChild.content(i);
            total += expected.length;
            for (int start = 0; start < expected.length; start += KilledWriterChild.BLOCK / 2) {
                int length = Math.min(KilledWriterChild.BLOCK, expected.length - start);
                try (ObjectStream in = reader.get(ObjectKey.of("b", "o" + i), ByteRange.of(start, length),
                        ReadCondition.ifMatch(etags[i]))) {
                    assertThat(in.readAllBytes()).as("object %d at %d", i, start)
                            .isEqualTo(java.util.Arrays.copyOfRange(expected, start, start + length));
                }
            }
        }
        BlockCacheStatistics.Snapshot stats = reader.cacheStatistics().snapshot();
        assertThat(stats.damaged()).as("block files under their names are whole").isZero();
        assertThat(stats.hits()).as("the killed writers' blocks are used").isPositive();
        assertThat(memory.statistics().snapshot().totalBytesReceived() - before).isLessThan(2 * total);
        assertThat(memory.statistics().snapshot().calls(CallType.GET)).isPositive();
        reader.flush();
        reader.close();
    }
}
