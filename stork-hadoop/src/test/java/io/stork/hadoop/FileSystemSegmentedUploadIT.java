package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectStore;
import io.stork.store.StoreApi;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Files past the first upload buffer over Swift with {@code fs.stork.swift.segment.size}: they are static
 * large objects, which read back whole and at any position through the file system, and deleting them
 * (one file, or a directory through the bulk delete) takes their segments along.
 */
class FileSystemSegmentedUploadIT {

    private static final int MIB = 1024 * 1024;

    @Test
    void segmentedFilesReadBackAndGoWithTheirSegments() throws IOException {
        String bucket = "it-fs-slo-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = new Configuration(false);
        StorkContract.configure(conf, bucket, StoreApi.SWIFT);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        conf.set("fs.stork.bucket." + bucket + ".swift.segment.size", "1m");
        conf.set("fs.stork.bucket." + bucket + ".swift.upload.buffer.size", "256k");
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
            ObjectStore store = ((StorkFileSystem) fs).store();
            store.createBucket(bucket);
            byte[] data = new byte[3 * MIB + 4321];
            new Random(5).nextBytes(data);
            for (String name : List.of("d/one.bin", "d/two.bin", "single.bin")) {
                try (FSDataOutputStream out = fs.create(new Path("/" + name))) {
                    out.write(data);
                }
            }
            assertThat(segments(store, bucket)).hasSize(12);
            assertThat(fs.getFileStatus(new Path("/d/one.bin")).getLen()).isEqualTo(data.length);
            byte[] whole = new byte[data.length];
            byte[] across = new byte[100];
            try (FSDataInputStream in = fs.open(new Path("/d/two.bin"))) {
                in.readFully(whole);
                in.readFully(2L * MIB - 50, across);
            }
            assertThat(whole).isEqualTo(data);
            assertThat(across).isEqualTo(Arrays.copyOfRange(data, 2 * MIB - 50, 2 * MIB + 50));

            assertThat(fs.delete(new Path("/single.bin"), false)).isTrue();
            assertThat(segments(store, bucket)).hasSize(8).noneMatch(s -> s.startsWith("single.bin/"));
            assertThat(fs.delete(new Path("/d"), true)).isTrue();
            assertThat(segments(store, bucket)).as("a directory's delete sweeps its files' segments").isEmpty();
            assertThat(fs.exists(new Path("/d/one.bin"))).isFalse();
        }
    }

    private static List<String> segments(ObjectStore store, String bucket) throws IOException {
        List<String> names = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket + "_segments", ""))) {
            while (it.hasNext()) {
                names.add(it.next().name());
            }
        }
        return names;
    }
}
