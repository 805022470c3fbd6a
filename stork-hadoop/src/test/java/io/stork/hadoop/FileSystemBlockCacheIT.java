package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreApi;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The block cache under the file system, on the local store: what a repeated read costs at the store's
 * access log (the client's count agreeing), the bytes it returns, and a changed object read anew.
 */
class FileSystemBlockCacheIT {

    @TempDir
    java.nio.file.Path cacheDir;

    private FileSystem open(StoreApi api, String bucket) throws IOException {
        Configuration conf = new Configuration(false);
        StorkContract.configure(conf, bucket, api);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        conf.setBoolean("fs.stork.cache.enabled", true);
        conf.set("fs.stork.cache.directory", cacheDir.toString());
        conf.set("fs.stork.cache.block.size", "65536");
        FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf);
        ((StorkFileSystem) fs).store().createBucket(bucket);
        return fs;
    }

    /** GETs at the store and the body bytes they carried, checked against the client's own count. */
    private record Cost(long gets, long bytes) {
    }

    private static Cost measured(FileSystem fs, IoAction action) throws IOException {
        var store = ((StorkFileSystem) fs).store();
        StatisticsSnapshot before = store.statistics().snapshot();
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        action.run();
        StoreCallCounts atStore = window.counts();
        StatisticsSnapshot byClient = store.statistics().snapshot().minus(before);
        assertThat(atStore.callsByType()).as("store vs client").isEqualTo(byClient.callsByType());
        return new Cost(atStore.byType().getOrDefault(CallType.GET, 0L), byClient.totalBytesReceived());
    }

    interface IoAction {
        void run() throws IOException;
    }

    private static byte[] readAll(FileSystem fs, Path path, int length) throws IOException {
        byte[] got = new byte[length];
        try (FSDataInputStream in = fs.open(path)) {
            in.readFully(0, got);
        }
        ((io.stork.store.cache.CachingObjectStore) ((StorkFileSystem) fs).store()).flush();
        return got;
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void aRepeatedReadCostsOneConditionalGetWithNoBodyAndAChangeIsReadAnew(StoreApi api) throws IOException {
        String bucket = "it-fs-cache-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = open(api, bucket)) {
            Path file = new Path("/data/large.bin");
            byte[] data = new byte[3 * 1024 * 1024 + 17];
            new Random(1).nextBytes(data);
            try (FSDataOutputStream out = fs.create(file, true)) {
                out.write(data);
            }
            byte[][] got = new byte[1][];
            Cost cold = measured(fs, () -> got[0] = readAll(fs, file, data.length));
            assertThat(got[0]).isEqualTo(data);
            assertThat(cold.gets()).isPositive();
            assertThat(cold.bytes()).as("a cold read fetches what it would without the cache").isEqualTo(data.length);

            Cost warm = measured(fs, () -> got[0] = readAll(fs, file, data.length));
            assertThat(got[0]).isEqualTo(data);
            assertThat(warm).as("the open's revalidation only").isEqualTo(new Cost(1, 0));

            // Seeks and positioned reads within one stream name the version: no call at all after the first.
            Cost seeks = measured(fs, () -> {
                try (FSDataInputStream in = fs.open(file)) {
                    byte[] buf = new byte[1000];
                    Random random = new Random(2);
                    for (int i = 0; i < 50; i++) {
                        int pos = random.nextInt(data.length - buf.length);
                        in.readFully(pos, buf);
                        assertThat(buf).isEqualTo(Arrays.copyOfRange(data, pos, pos + buf.length));
                    }
                }
            });
            assertThat(seeks).isEqualTo(new Cost(1, 0));

            byte[] changed = data.clone();
            changed[data.length / 2] ^= 0x55;
            try (FSDataOutputStream out = fs.create(file, true)) {
                out.write(changed);
            }
            Cost afterChange = measured(fs, () -> got[0] = readAll(fs, file, data.length));
            assertThat(got[0]).as("never the old version's blocks").isEqualTo(changed);
            assertThat(afterChange.bytes()).isEqualTo(changed.length);

            IOStatistics statistics = ((StorkFileSystem) fs).getIOStatistics();
            assertThat(statistics.counters().get("stork_cache_hits")).isPositive();
            assertThat(statistics.counters().get("stork_cache_bytes_served")).as("the warm read and the fifty positioned reads").isEqualTo(data.length + 50_000L);
            assertThat(statistics.counters().get("stork_cache_bytes_fetched")).isEqualTo(2L * data.length);
            assertThat(Files.list(cacheDir).count()).as("the bucket's directory").isEqualTo(1);
        }
    }
}
