package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreStatistics;
import io.stork.store.memory.MemoryStores;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code stork://} over {@code fs.stork.api=memory}: no endpoint, no credentials, no server, so the file
 * system's own logic is tested in the unit lane. Its costs are the ones FileSystemCallCountIT proves at the
 * real store's access log; here the memory store counts them.
 */
class MemoryFileSystemTest {

    private static final byte[] DATA = "a small file\n".repeat(100).getBytes(StandardCharsets.UTF_8);

    @AfterEach
    void wipe() {
        MemoryStores.wipe();
    }

    /** A new instance each time (outside Hadoop's cache), as Spark's driver and tasks may hold. */
    private static FileSystem open(String bucket, Configuration conf) throws IOException {
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        return FileSystem.get(URI.create("stork://" + bucket + "/"), conf);
    }

    private static Configuration memory() {
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.api", "memory");
        return conf;
    }

    private static void write(FileSystem fs, Path file, boolean overwrite) throws IOException {
        try (FSDataOutputStream out = fs.create(file, overwrite)) {
            out.write(DATA);
        }
    }

    @Test
    void aFileIsCreatedReadListedAndDeletedWithNoServer() throws IOException {
        try (FileSystem fs = open("unit-fs", memory())) {
            Path file = new Path("/dir/small.txt");
            write(fs, file, true);
            try (FSDataInputStream in = fs.open(file)) {
                assertThat(in.readAllBytes()).isEqualTo(DATA);
            }
            FileStatus[] listed = fs.listStatus(new Path("/dir"));
            assertThat(Arrays.stream(listed).map(s -> s.getPath().getName())).containsExactly("small.txt");
            assertThat(listed[0].getLen()).isEqualTo(DATA.length);
            assertThat(fs.getFileStatus(new Path("/dir")).isDirectory()).isTrue();

            assertThat(fs.delete(new Path("/dir"), true)).isTrue();
            assertThat(fs.exists(file)).isFalse();
            assertThat(fs.exists(new Path("/dir"))).isFalse();
        }
    }

    @Test
    void instancesOfABucketShareItsObjectsAndCountTheirCallsInOnePlace() throws IOException {
        try (FileSystem writer = open("unit-fs-shared", memory()); FileSystem reader = open("unit-fs-shared", memory())) {
            assertThat(writer).isNotSameAs(reader);
            StoreStatistics store = MemoryStores.shared("unit-fs-shared").statistics();
            assertThat(((StorkFileSystem) reader).store().statistics()).isSameAs(store);

            Path file = new Path("/data/small.txt");
            assertThat(calls(store, () -> write(writer, file, true))).isEqualTo(Map.of(CallType.PUT, 1L));
            assertThat(calls(store, () -> write(writer, new Path("/data/other.txt"), false)))
                    .as("create without overwrite checks first").isEqualTo(Map.of(CallType.HEAD, 1L, CallType.PUT, 1L));
            assertThat(calls(store, () -> {
                try (FSDataInputStream in = reader.open(file)) {
                    assertThat(in.readAllBytes()).isEqualTo(DATA);
                }
            })).as("one GET brings length and ETag: no HEAD").isEqualTo(Map.of(CallType.GET, 1L));
        }
    }

    @Test
    void createWithoutOverwriteLosesToAFileThatLandedAfterItsCheck() throws IOException {
        try (FileSystem first = open("unit-fs-race", memory()); FileSystem second = open("unit-fs-race", memory())) {
            Path file = new Path("/claimed.txt");
            FSDataOutputStream late = first.create(file, false); // its existence check passes now
            write(second, file, true);
            late.write("late".getBytes(StandardCharsets.UTF_8));
            Throwable refused = catchThrowable(late::close);
            assertThat(refused).as("the PUT is conditional (If-None-Match: *)").isInstanceOf(IOException.class)
                    .hasMessageContaining("already exists");
            try (FSDataInputStream in = second.open(file)) {
                assertThat(in.readAllBytes()).isEqualTo(DATA);
            }
        }
    }

    @Test
    void thePerBucketKeyChoosesMemoryAndOtherBucketsKeepTheDefaultApi() throws IOException {
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.api", "s3");
        conf.set("fs.stork.bucket.unit-fs-bucket.api", "memory");
        try (FileSystem fs = open("unit-fs-bucket", conf)) {
            write(fs, new Path("/x.txt"), true);
            assertThat(fs.getFileStatus(new Path("/x.txt")).getLen()).isEqualTo(DATA.length);
        }
        Throwable s3 = catchThrowable(() -> open("unit-fs-s3", conf));
        assertThat(s3).isInstanceOf(IOException.class).hasMessageContaining("missing configuration fs.stork.endpoint");
    }

    @Test
    void anUnknownApiIsOneLineNamingTheKnownOnes() {
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.api", "ftp");
        Throwable e = catchThrowable(() -> open("unit-fs-bad", conf));
        assertThat(e).isInstanceOf(IOException.class).hasMessage(
                "stork://unit-fs-bad: fs.stork.api must be one of memory, s3, swift (the store APIs on the class path), not 'ftp'");
    }

    @Test
    void wipeLeavesTheBucketEmptyForTheNextFileSystem() throws IOException {
        try (FileSystem fs = open("unit-fs-wipe", memory())) {
            write(fs, new Path("/gone.txt"), true);
        }
        MemoryStores.wipe();
        try (FileSystem fs = open("unit-fs-wipe", memory())) {
            assertThat(fs.exists(new Path("/gone.txt"))).isFalse();
            assertThat(fs.listStatus(new Path("/"))).isEmpty();
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static Map<CallType, Long> calls(StoreStatistics statistics, IoAction action) throws IOException {
        StatisticsSnapshot before = statistics.snapshot();
        action.run();
        return statistics.snapshot().minus(before).calls();
    }
}
