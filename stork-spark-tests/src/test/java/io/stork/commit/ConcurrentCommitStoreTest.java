package io.stork.commit;

import io.stork.manifest.commit.ConcurrentCommitException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.localstore.LocalStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Concurrent job commits to one dataset through the Swift API, whose conditional creates let one commit
 * win each generation: the loser merges again, so no committed part is lost (docs/commit-protocol.md).
 */
class ConcurrentCommitStoreTest {

    private static FileSystem swift(String bucket) throws IOException {
        LocalStore local = LocalStore.shared();
        Configuration conf = new Configuration(false);
        String prefix = "fs.stork.bucket." + bucket + ".";
        conf.set(prefix + "api", "swift");
        conf.set(prefix + "swift.auth.url", local.swiftAuthUrl().toString());
        conf.set(prefix + "swift.user", local.swiftUser());
        conf.set(prefix + "swift.password", local.swiftKey());
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf);
        ((StorkFileSystem) fs).store().createBucket(bucket);
        return fs;
    }

    private static List<ManifestPart> writeParts(FileSystem fs, Path root, String job, int count) throws IOException {
        DatasetCommitter committer = new DatasetCommitter(fs, root, job);
        List<ManifestPart> parts = new ArrayList<>();
        for (int task = 0; task < count; task++) {
            Path part = new Path(root, PartNames.partFileName(task, job, task, ".txt"));
            try (OutputStream out = fs.create(part, false)) {
                out.write((job + " " + task + "\n").getBytes());
            }
            parts.add(committer.describe(part, task, task));
        }
        return parts;
    }

    /** The S3 API of a gateway that honours conditional writes (scripts/conditional-s3-store.sh). */
    private static FileSystem conditionalS3(String bucket) throws IOException {
        io.stork.localstore.ConditionalS3Store gateway = io.stork.localstore.ConditionalS3Store.shared();
        Configuration conf = new Configuration(false);
        String prefix = "fs.stork.bucket." + bucket + ".";
        conf.set(prefix + "api", "s3");
        conf.set(prefix + "endpoint", gateway.endpoint().toString());
        conf.set(prefix + "access.key", gateway.accessKey());
        conf.set(prefix + "access.secret", gateway.secretKey());
        conf.setBoolean(prefix + "s3.conditional.writes", true);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf);
        ((StorkFileSystem) fs).store().createBucket(bucket);
        return fs;
    }

    @Test
    void concurrentAppendsThroughS3ConditionalWritesLoseNothing() throws Exception {
        String bucket = "it-concurrent-s3c-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = conditionalS3(bucket)) {
            Path root = new Path("stork://" + bucket + "/events");
            assertThat(fs.hasPathCapability(root, io.stork.hadoop.StorkCapabilities.ATOMIC_CREATE)).isTrue();
            concurrentAppendsLoseNothing(fs, root, 6);
        }
    }

    @Test
    void concurrentAppendsThroughSwiftLoseNothing() throws Exception {
        String bucket = "it-concurrent-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = swift(bucket)) {
            Path root = new Path("stork://" + bucket + "/events");
            assertThat(fs.hasPathCapability(root, io.stork.hadoop.StorkCapabilities.CONDITIONAL_CREATE)).isTrue();
            concurrentAppendsLoseNothing(fs, root, 4);
        }
    }

    private static void concurrentAppendsLoseNothing(FileSystem fs, Path root, int writers) throws Exception {
        {
            String first = UUID.randomUUID().toString();
            new DatasetCommitter(fs, root, first).commit(writeParts(fs, root, first, 2), ReplacePlan.NOTHING, true,
                    Instant.now());

            CyclicBarrier start = new CyclicBarrier(writers);
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<Manifest>> commits = new ArrayList<>();
            List<List<ManifestPart>> written = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                String job = UUID.randomUUID().toString();
                List<ManifestPart> parts = writeParts(fs, root, job, 3);
                written.add(parts);
                commits.add(pool.submit(() -> {
                    start.await();
                    return new DatasetCommitter(fs, root, job).commit(parts, ReplacePlan.NOTHING, false, Instant.now());
                }));
            }
            for (Future<Manifest> commit : commits) {
                commit.get();
            }
            pool.shutdown();

            Manifest last = new DatasetCommitter(fs, root, "reader").readManifest().orElseThrow();
            assertThat(last.generation()).isEqualTo(1 + writers);
            assertThat(last.parts()).hasSize(2 + writers * 3);
            for (List<ManifestPart> parts : written) {
                assertThat(last.parts()).extracting(ManifestPart::path)
                        .containsAll(parts.stream().map(ManifestPart::path).toList());
            }
        }
    }

    @Test
    void aNewDatasetCreatedMeanwhileFailsTheJobInsteadOfReplacingIt() throws Exception {
        String bucket = "it-concurrent-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = swift(bucket)) {
            Path root = new Path("stork://" + bucket + "/fresh");
            String winner = UUID.randomUUID().toString();
            String loser = UUID.randomUUID().toString();
            List<ManifestPart> loserParts = writeParts(fs, root, loser, 1);
            new DatasetCommitter(fs, root, winner).commit(writeParts(fs, root, winner, 1), ReplacePlan.NOTHING, true,
                    Instant.now());
            assertThatThrownBy(() -> new DatasetCommitter(fs, root, loser).commit(loserParts, ReplacePlan.NOTHING,
                    true, Instant.now()))
                    .isInstanceOf(ConcurrentCommitException.class).hasMessageContaining("was created by another job");
            Manifest kept = new DatasetCommitter(fs, root, "reader").readManifest().orElseThrow();
            assertThat(kept.jobId()).isEqualTo(winner);
        }
    }
}
