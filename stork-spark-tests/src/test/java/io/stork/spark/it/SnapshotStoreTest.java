package io.stork.spark.it;

import static io.stork.spark.it.SparkOnLocalStore.countedAtStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.PartNames;
import io.stork.manifest.SnapshotRef;
import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generations against the real store, both APIs: revalidation of a cached manifest, other writers'
 * commits seen at once, time travel by path, restore and vacuum through the dataset tool, integrity
 * checks on read. Calls are counted at the store's access log.
 */
class SnapshotStoreTest {

    private static final String S3_BUCKET = "it-gen-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-gen-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-generations", S3_BUCKET, SWIFT_BUCKET)
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not inside a counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .config("spark.hadoop.fs.stork.commit.claim.timeout", "4s").getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static String bucket(String api) {
        return api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
    }

    private static String newPath(String api, String name) {
        return "stork://" + bucket(api) + "/" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Manifest manifest(StorkFileSystem fs, String dataset) throws Exception {
        try (InputStream in = fs.open(new Path(dataset, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    private static long count(String path) {
        return spark.read().parquet(path).count();
    }

    /** The dataset tool as its command line runs it, with this session's bucket settings as -D arguments. */
    private static int tool(String... args) throws Exception {
        java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(args));
        for (Map.Entry<String, String> e : spark.sparkContext().hadoopConfiguration()) {
            if (e.getKey().startsWith("fs.stork.bucket.")) {
                all.add(0, "-D" + e.getKey() + "=" + e.getValue());
            }
        }
        return io.stork.commit.DatasetToolAccess.run(all.toArray(new String[0]));
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void anUnchangedDatasetIsRevalidatedWithOne304AndAnotherWritersCommitIsSeenAtOnce(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "reval");
        spark.range(0, 100, 1, 2).write().parquet(path);
        assertThat(count(path)).isEqualTo(100);

        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        Map<CallType, Long> again = countedAtStore(fs, () -> assertThat(count(path)).isEqualTo(100));
        StoreCallCounts calls = window.counts();
        assertThat(again).as("a 304 for the manifest, then the two parts' footers and data")
                .containsOnlyKeys(CallType.GET);
        assertThat(calls.entries().stream().filter(e -> e.path().endsWith("/" + PartNames.MANIFEST)))
                .singleElement().satisfies(e -> assertThat(e.status()).isEqualTo(304));

        // A commit by another writer, straight to the store (this file system's caches know nothing of it).
        String key = new Path(path).toUri().getPath().substring(1);
        Manifest before = manifest(fs, path);
        Manifest next = new Manifest(1, "test", "other-job", 2, Manifest.Operation.OVERWRITE,
                before.createdAt(), before.committedAt(), before.parts().subList(0, 1));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ManifestCodec.write(next, out);
        fs.store().put(ObjectKey.of(bucket(api), key + "/" + PartNames.MANIFEST), PutBody.of(out.toByteArray()),
                PutOptions.defaults());
        assertThat(count(path)).as("the next query sees the other writer's generation").isEqualTo(50);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void pastGenerationsAreReadByPathRestoredAndVacuumedAfterRetention(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "travel");
        spark.range(0, 100, 1, 2).selectExpr("id", "id % 2 AS k").write().partitionBy("k").parquet(path);
        spark.range(100, 130, 1, 1).selectExpr("id", "id % 2 AS k").write().partitionBy("k").mode(SaveMode.Append)
                .parquet(path);
        spark.range(0, 7, 1, 1).selectExpr("id", "id % 2 AS k").write().partitionBy("k").mode(SaveMode.Overwrite)
                .parquet(path);
        Manifest third = manifest(fs, path);
        assertThat(third.generation()).isEqualTo(3);
        assertThat(count(path)).isEqualTo(7);

        // Time travel by path: Spark SQL and RDD reads, and by timestamp.
        java.time.Instant second = third.info(2).orElseThrow().committedAt();
        assertThat(count(path + SnapshotRef.timestampSuffix(second.plusMillis(1)))).isEqualTo(130);
        assertThat(count(path + SnapshotRef.generationSuffix(1))).isEqualTo(100);
        Map<CallType, Long> oldRead = countedAtStore(fs, () ->
                assertThat(count(path + SnapshotRef.generationSuffix(2))).isEqualTo(130));
        assertThat(oldRead).as("an old generation: the manifest, then its parts (no LIST, no HEAD)")
                .containsOnlyKeys(CallType.GET);
        assertThat(spark.read().parquet(path + SnapshotRef.generationSuffix(2)).where("k = 1").count()).isEqualTo(65);
        assertThatThrownBy(() -> count(path + SnapshotRef.generationSuffix(9)))
                .hasMessageContaining("generation 9").hasMessageContaining("does not exist");
        // Delta Lake's read options, through the extension.
        assertThat(spark.read().option("versionAsOf", 1).parquet(path).count()).isEqualTo(100);
        assertThat(spark.read().option("versionAsOf", "2").parquet(path).where("k = 0").count()).isEqualTo(65);
        assertThat(spark.read().option("timestampAsOf", second.plusMillis(1).toString()).parquet(path).count())
                .isEqualTo(130);
        assertThatThrownBy(() -> spark.read().option("versionAsOf", "latest").parquet(path).count())
                .hasMessageContaining("versionAsOf must be a generation number");

        // What an incremental job polling since generation 1 learns, in commit order, from one GET.
        Map<CallType, Long> poll = countedAtStore(fs, () -> {
            io.stork.manifest.Changes changes = io.stork.commit.DatasetChanges.since(fs, new Path(path), 1);
            assertThat(changes.to()).isEqualTo(3);
            java.util.List<String> expected = new java.util.ArrayList<>();
            third.partsAt(2).stream().filter(p -> p.addedIn() == 2).forEach(p -> expected.add("2+"));
            third.removed().forEach(r -> expected.add("3-"));
            third.parts().forEach(p -> expected.add("3+"));
            assertThat(expected).hasSizeGreaterThan(4);
            assertThat(changes.inCommitOrder()).extracting(e -> e.generation() + (e.added() ? "+" : "-"))
                    .containsExactlyElementsOf(expected);
        });
        assertThat(poll).isEqualTo(Map.of(CallType.GET, 1L));

        // Restore generation 2: a fourth generation naming its parts, nothing copied.
        AccessLog.Window restoreWindow = LocalStore.shared().accessLog().openWindow();
        assertThat(tool("restore", path, "2")).isZero();
        assertThat(restoreWindow.counts().byType()).as("read the manifest (tool and commit share it), write the next")
                .doesNotContainKey(CallType.COPY).containsEntry(CallType.PUT, api.equals("swift") ? 2L : 1L);
        spark.catalog().clearCache();
        assertThat(count(path)).isEqualTo(130);
        Manifest fourth = manifest(fs, path);
        assertThat(fourth.operation()).isEqualTo(Manifest.Operation.RESTORE);

        // Vacuum: within retention it keeps everything; with retention 0 it deletes what no current part names.
        assertThat(tool("vacuum", path)).isZero();
        assertThat(count(path + SnapshotRef.generationSuffix(3))).isEqualTo(7);
        AccessLog.Window vacuumWindow = LocalStore.shared().accessLog().openWindow();
        assertThat(tool("vacuum", "--retention", "0s", "-Dfs.stork.maintenance.retention.check=false", path)).isZero();
        Map<CallType, Long> vacuum = new java.util.EnumMap<>(vacuumWindow.counts().byType());
        vacuum.remove(CallType.AUTH); // the tool's own Swift session
        assertThat(vacuum).as("the manifest, one listing, one bulk delete")
                .isEqualTo(Map.of(CallType.GET, 1L, CallType.LIST, 1L, CallType.BULK_DELETE, 1L));
        assertThat(count(path)).isEqualTo(130);
        // This session still has generation 3 cached (immutable) from before: its parts are gone now.
        assertThatThrownBy(() -> count(path + SnapshotRef.generationSuffix(3))).hasMessageContaining("no such file");
        // A reader whose retention has passed too is refused before it reads anything.
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(
                spark.sparkContext().hadoopConfiguration());
        conf.set("fs.stork.retention", "0s");
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        try (org.apache.hadoop.fs.FileSystem reader = org.apache.hadoop.fs.FileSystem.newInstance(
                new Path(path).toUri(), conf)) {
            assertThatThrownBy(() -> reader.listStatus(new Path(path + SnapshotRef.generationSuffix(3))))
                    .isInstanceOf(java.io.FileNotFoundException.class)
                    .hasMessageContaining("generation 3 is older than the retention period");
            assertThat(reader.listStatus(new Path(path + SnapshotRef.generationSuffix(4)))).isNotEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aPartReplacedAfterItsCommitAndACorruptManifestFailWithOneLine(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "changed");
        new JavaSparkContext(spark.sparkContext()).parallelize(java.util.List.of("aaaa", "bbbb"), 1).saveAsTextFile(path);
        Manifest manifest = manifest(fs, path);
        String key = new Path(path).toUri().getPath().substring(1);
        String part = key + "/" + manifest.parts().get(0).path();
        byte[] original = "aaaa\nbbbb\n".getBytes(StandardCharsets.UTF_8);
        // Same length, other bytes: only the ETag tells.
        fs.store().put(ObjectKey.of(bucket(api), part), PutBody.of("zzzz\nyyyy\n".getBytes(StandardCharsets.UTF_8)),
                PutOptions.defaults());
        assertThat(original).hasSize(10);
        assertThatThrownBy(() -> new JavaSparkContext(spark.sparkContext()).textFile(path).count())
                .hasMessageContaining("changed since generation 1");
        assertThatThrownBy(() -> {
            try (InputStream in = fs.open(new Path(path, manifest.parts().get(0).path()))) {
                in.read();
            }
        }).hasMessageContaining("changed since generation 1 of stork://" + bucket(api) + "/" + key + " was committed");

        fs.store().put(ObjectKey.of(bucket(api), key + "/" + PartNames.MANIFEST),
                PutBody.of("\u0000garbage, not JSON".getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());
        assertThatThrownBy(() -> spark.read().text(path).count())
                .hasMessageContaining("corrupt Stork manifest stork://" + bucket(api) + "/" + key + "/_SUCCESS");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aJobKilledAfterClaimingAGenerationDoesNotBlockLaterWriters(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "dead-claim");
        spark.range(0, 10, 1, 1).write().parquet(path);
        String key = new Path(path).toUri().getPath().substring(1);
        boolean claims = fs.hasPathCapability(new Path(path), io.stork.hadoop.StorkCapabilities.CONDITIONAL_CREATE);
        ObjectKey claim2 = ObjectKey.of(bucket(api), key + "/" + PartNames.INTERNAL_DIRECTORY + "/generation-2");
        ObjectKey claim3 = ObjectKey.of(bucket(api), key + "/" + PartNames.INTERNAL_DIRECTORY + "/generation-3");
        // One job died long ago after claiming generation 2, another one just now after claiming 3.
        fs.store().put(claim2, PutBody.of(("dead-job\n" + (System.currentTimeMillis() - 3_600_000))
                .getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());
        fs.store().put(claim3, PutBody.of(("just-died\n" + System.currentTimeMillis())
                .getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());

        long start = System.nanoTime();
        spark.range(10, 30, 1, 1).write().mode(SaveMode.Append).parquet(path);
        long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        Manifest manifest = manifest(fs, path);
        assertThat(count(path)).isEqualTo(30);
        if (claims) {
            assertThat(manifest.generation()).as("generations 2 and 3 skipped").isEqualTo(4);
            assertThat(seconds).as("waited for the fresh claim's timeout (4 s), not longer").isBetween(3L, 30L);
        } else {
            assertThat(manifest.generation()).as("no claims on an S3 API without conditional writes").isEqualTo(2);
        }
    }
}
