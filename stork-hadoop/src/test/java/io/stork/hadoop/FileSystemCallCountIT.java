package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreApi;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import io.stork.localstore.SwiftBulkLoader;
import java.io.IOException;
import java.net.URI;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The FileSystem's REST calls, counted at the store's access log (and agreeing with the client's). */
class FileSystemCallCountIT {

    interface IoAction {
        void run() throws IOException;
    }

    static FileSystem open(StoreApi api, String bucket) throws IOException {
        Configuration conf = new Configuration(false);
        StorkContract.configure(conf, bucket, api);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf);
        ((StorkFileSystem) fs).store().createBucket(bucket);
        return fs;
    }

    private static Map<CallType, Long> measured(FileSystem fs, IoAction action) throws IOException {
        var store = ((StorkFileSystem) fs).store();
        StatisticsSnapshot before = store.statistics().snapshot();
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        action.run();
        StoreCallCounts atStore = window.counts();
        StatisticsSnapshot byClient = store.statistics().snapshot().minus(before);
        assertThat(atStore.callsByType()).as("store vs client").isEqualTo(byClient.callsByType());
        Map<CallType, Long> calls = new EnumMap<>(CallType.class);
        calls.putAll(atStore.byType());
        calls.remove(CallType.AUTH); // a Swift client's first call authenticates once
        return calls;
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void readsWritesAndStatusCostTheirTargets(StoreApi api) throws IOException {
        String bucket = "it-fs-calls-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = open(api, bucket)) {
            Path file = new Path("/data/small.txt");
            byte[] data = "a small file\n".repeat(100).getBytes();

            assertThat(measured(fs, () -> {
                try (FSDataOutputStream out = fs.create(file, true)) {
                    out.write(data);
                }
            })).isEqualTo(Map.of(CallType.PUT, 1L));

            assertThat(measured(fs, () -> {
                try (FSDataOutputStream out = fs.create(new Path("/data/other.txt"), false)) {
                    out.write(data);
                }
            })).isEqualTo(Map.of(CallType.HEAD, 1L, CallType.PUT, 1L));

            assertThat(measured(fs, () -> {
                try (FSDataInputStream in = fs.open(file)) {
                    assertThat(in.readAllBytes()).isEqualTo(data);
                }
            })).isEqualTo(Map.of(CallType.GET, 1L));

            assertThat(measured(fs, () -> {
                try (FSDataOutputStream out = (FSDataOutputStream) fs.createFile(new Path("/data/unique-name.txt"))
                        .overwrite(false).recursive().opt("fs.option.create.performance", true).build()) {
                    out.write(data);
                }
            })).as("createFile with create.performance: no existence check").isEqualTo(Map.of(CallType.PUT, 1L));
            assertThat(measured(fs, () -> {
                try (FSDataOutputStream out = (FSDataOutputStream) fs.createFile(new Path("/data/checked.txt"))
                        .overwrite(false).recursive().build()) {
                    out.write(data);
                }
            })).isEqualTo(Map.of(CallType.HEAD, 1L, CallType.PUT, 1L));

            assertThat(measured(fs, () -> assertThat(fs.getFileStatus(file).getLen()).isEqualTo(data.length)))
                    .as("the status of this file system's own write is known from the write").isEmpty();
            try (FileSystem reader = open(api, bucket)) {
                assertThat(measured(reader, () -> assertThat(reader.getFileStatus(file).getLen()).isEqualTo(data.length)))
                        .as("another process's file: one HEAD").isEqualTo(Map.of(CallType.HEAD, 1L));
                assertThat(measured(reader, () -> assertThat(reader.getFileStatus(file).getLen()).isEqualTo(data.length)))
                        .as("input is immutable: the status is cached").isEmpty();
            }
            var io = ((StorkFileSystem) fs).getIOStatistics();
            assertThat(io.counters().get("stork_head_calls")).isEqualTo(
                    ((StorkFileSystem) fs).store().statistics().snapshot().calls(CallType.HEAD));
            assertThat(fs.getStorageStatistics().getLong("stork_put_calls")).isEqualTo(4L);
            assertThat(measured(fs, () -> assertThat(fs.getFileStatus(new Path("/data")).isDirectory()).isTrue()))
                    .as("a name without extension is taken for a dataset: its manifest first, then one LIST")
                    .isEqualTo(Map.of(CallType.GET, 1L, CallType.LIST, 1L));
            assertThat(measured(fs, () -> assertThatThrownBy(() -> fs.getFileStatus(new Path("/data/missing.csv")))
                    .isInstanceOf(java.io.FileNotFoundException.class)))
                    .as("a name with an extension is taken for a file: HEAD, then one LIST")
                    .isEqualTo(Map.of(CallType.HEAD, 1L, CallType.LIST, 1L));
            assertThat(measured(fs, () -> assertThat(fs.exists(new Path("/nothing"))).isFalse()))
                    .as("exists: a manifest probe, then one LIST that tells file, directory and nothing apart")
                    .isEqualTo(Map.of(CallType.GET, 1L, CallType.LIST, 1L));
            assertThat(measured(fs, () -> assertThat(fs.exists(new Path("/data"))).isTrue()))
                    .as("the manifest's absence is cached").isEqualTo(Map.of(CallType.LIST, 1L));
            try (FileSystem reader = open(api, bucket)) {
                assertThat(measured(reader, () -> assertThat(reader.exists(file)).isTrue()))
                        .as("exists of a name with an extension: no manifest probe, one LIST")
                        .isEqualTo(Map.of(CallType.LIST, 1L));
                assertThat(measured(reader, () -> assertThat(reader.exists(new Path("/missing.csv"))).isFalse()))
                        .isEqualTo(Map.of(CallType.LIST, 1L));
            }
            try (FileSystem reader = open(api, bucket)) {
                assertThat(measured(reader, () -> assertThat(reader.listStatus(file)).hasSize(1)))
                        .as("a file listed as itself (Spark does so to infer a CSV's schema): one HEAD")
                        .isEqualTo(Map.of(CallType.HEAD, 1L));
                assertThat(measured(reader, () -> assertThat(reader.listStatus(file)).hasSize(1)))
                        .as("then from the status cache").isEmpty();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void vectoredReadsMergeNearbyRangesAndOpenFileWithAStatusMakesNoLookup(StoreApi api) throws Exception {
        String bucket = "it-fs-vector-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = open(api, bucket)) {
            Path file = new Path("/columns.bin");
            byte[] data = new byte[3 * 1024 * 1024];
            new java.util.Random(3).nextBytes(data);
            try (FSDataOutputStream out = fs.create(file, true)) {
                out.write(data);
            }
            FileStatus status = fs.getFileStatus(file);
            java.util.List<org.apache.hadoop.fs.FileRange> ranges = java.util.List.of(
                    org.apache.hadoop.fs.FileRange.createFileRange(100, 1000),
                    org.apache.hadoop.fs.FileRange.createFileRange(20_000, 5000),
                    org.apache.hadoop.fs.FileRange.createFileRange(60_000, 100),
                    org.apache.hadoop.fs.FileRange.createFileRange(2_900_000, 4096));
            assertThat(measured(fs, () -> {
                try (FSDataInputStream in = org.apache.hadoop.util.functional.FutureIO.awaitFuture(
                        fs.openFile(file).withFileStatus(status).build())) {
                    in.readVectored(ranges, java.nio.ByteBuffer::allocate);
                    for (org.apache.hadoop.fs.FileRange range : ranges) {
                        java.nio.ByteBuffer buffer = org.apache.hadoop.util.functional.FutureIO.awaitFuture(range.getData());
                        byte[] expected = java.util.Arrays.copyOfRange(data, (int) range.getOffset(),
                                (int) range.getOffset() + range.getLength());
                        byte[] actual = new byte[buffer.remaining()];
                        buffer.get(actual);
                        assertThat(actual).isEqualTo(expected);
                    }
                }
            })).as("three nearby ranges in one GET, the far one in another; no HEAD")
                    .isEqualTo(Map.of(CallType.GET, 2L));

            assertThat(measured(fs, () -> {
                try (FSDataInputStream in = fs.open(file)) {
                    byte[] head = new byte[100];
                    in.readFully(head);
                    in.seek(100 + 500_000); // forward within the read-ahead: read on, no new GET
                    in.readFully(head);
                    assertThat(head).isEqualTo(java.util.Arrays.copyOfRange(data, 500_100, 500_200));
                }
            })).isEqualTo(Map.of(CallType.GET, 1L));
        }
    }

    /**
     * A columnar reader's pattern (footer at the end, then chunks): after the first seek the open stream
     * cannot serve, each GET asks only for what the read wants (at least the read-ahead), so the store
     * sends no bytes that nobody reads. A sequential read past a range's end continues with the next range.
     */
    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void randomReadsAskForTheBytesTheyReadAndNoMore(StoreApi api) throws Exception {
        String bucket = "it-fs-random-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = open(api, bucket)) {
            Path file = new Path("/table.parquet");
            int mib = 1024 * 1024;
            byte[] data = new byte[8 * mib];
            new java.util.Random(5).nextBytes(data);
            try (FSDataOutputStream out = fs.create(file, true)) {
                out.write(data);
            }
            FileStatus status = fs.getFileStatus(file);
            AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
            try (FSDataInputStream in = org.apache.hadoop.util.functional.FutureIO.awaitFuture(
                    fs.openFile(file).withFileStatus(status).build())) {
                byte[] tail = new byte[8];
                in.seek(data.length - 8);
                in.readFully(tail); // the first GET: the last 16 KiB (a columnar footer's tail), served from memory
                byte[] footer = new byte[100_000];
                in.seek(data.length - 100_000);
                in.readFully(footer); // backward seek: random mode, a GET of 100,000 bytes
                byte[] chunk = new byte[5 * mib];
                in.seek(0);
                in.readFully(chunk, 0, 2 * mib); // a GET of 2 MiB
                in.readFully(chunk, 2 * mib, 3 * mib); // sequential past the range: the next 3 MiB
                assertThat(tail).isEqualTo(java.util.Arrays.copyOfRange(data, data.length - 8, data.length));
                assertThat(footer).isEqualTo(java.util.Arrays.copyOfRange(data, data.length - 100_000, data.length));
                assertThat(chunk).isEqualTo(java.util.Arrays.copyOfRange(data, 0, 5 * mib));
            }
            StoreCallCounts atStore = window.counts();
            assertThat(atStore.calls(CallType.GET)).isEqualTo(4);
            assertThat(atStore.bytesSent()).as("bytes the store sent").isEqualTo(io.stork.hadoop.io.ReadPolicy.DEFAULT_TAIL_SIZE + 100_000L + 5L * mib);
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void aSmallObjectOfKnownLengthIsOneGetWhateverTheReaderDoes(StoreApi api) throws Exception {
        String bucket = "it-fs-small-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = open(api, bucket)) {
            Path file = new Path("/small.parquet");
            byte[] data = new byte[300_000];
            new java.util.Random(7).nextBytes(data);
            try (FSDataOutputStream out = fs.create(file, true)) {
                out.write(data);
            }
            FileStatus status = fs.getFileStatus(file);
            AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
            try (FSDataInputStream in = org.apache.hadoop.util.functional.FutureIO.awaitFuture(
                    fs.openFile(file).withFileStatus(status).build())) {
                // A Parquet reader's pattern: footer length, footer, then column chunks, and a positioned read.
                byte[] tail = new byte[8];
                in.seek(data.length - 8);
                in.readFully(tail);
                byte[] footer = new byte[20_000];
                in.readFully(data.length - 20_008, footer);
                byte[] chunk = new byte[100_000];
                in.seek(4);
                in.readFully(chunk);
                assertThat(in.read()).isEqualTo(data[100_004] & 0xff);
                assertThat(tail).isEqualTo(java.util.Arrays.copyOfRange(data, data.length - 8, data.length));
                assertThat(footer).isEqualTo(java.util.Arrays.copyOfRange(data, data.length - 20_008, data.length - 8));
                assertThat(chunk).isEqualTo(java.util.Arrays.copyOfRange(data, 4, 100_004));
            }
            StoreCallCounts atStore = window.counts();
            assertThat(atStore.byType()).as("one GET of the whole object").containsExactly(
                    java.util.Map.entry(CallType.GET, 1L));
            assertThat(atStore.bytesSent()).isEqualTo(data.length);
        }
    }

    /** One fixture of 2,500 files, loaded once, listed through both APIs (objects are shared). */
    @org.junit.jupiter.api.Test
    void listing2500FilesTakesThreeListsThroughEitherApi() throws IOException {
        String bucket = "it-fs-list-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem s3 = open(StoreApi.S3, bucket); FileSystem swift = open(StoreApi.SWIFT, bucket)) {
            Map<String, byte[]> objects = new LinkedHashMap<>();
            for (int i = 0; i < 2500; i++) {
                objects.put(String.format("table/part-%05d.csv", i), new byte[] {'x', '\n'});
            }
            SwiftBulkLoader.load(LocalStore.shared(), bucket, objects);
            for (FileSystem fs : java.util.List.of(s3, swift)) {
                FileStatus[][] listed = new FileStatus[1][];
                assertThat(measured(fs, () -> listed[0] = fs.listStatus(new Path("/table"))))
                        .as("the first listing probes for a manifest (one GET, absent), then lists")
                        .isEqualTo(Map.of(CallType.GET, 1L, CallType.LIST, 3L));
                assertThat(measured(fs, () -> listed[0] = fs.listStatus(new Path("/table"))))
                        .as("the absence of a manifest is cached").isEqualTo(Map.of(CallType.LIST, 3L));
                assertThat(listed[0]).hasSize(2500);
                assertThat(listed[0][2499].getPath().getName()).isEqualTo("part-02499.csv");

                int[] count = {0};
                assertThat(measured(fs, () -> {
                    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path("/table"), true);
                    while (it.hasNext()) {
                        it.next();
                        count[0]++;
                    }
                })).isEqualTo(Map.of(CallType.LIST, 3L));
                assertThat(count[0]).isEqualTo(2500);
            }
        }
    }
}
