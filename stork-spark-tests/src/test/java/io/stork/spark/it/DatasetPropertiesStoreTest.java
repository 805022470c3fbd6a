package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.PartNames;
import io.stork.store.CallType;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dataset property against the real store: a dataset written with its own retention (a write option,
 * kept in the manifest) is vacuumed by it by the dataset tool run as a separate session that has no
 * retention key, and set-property changes an existing dataset's retention in one generation naming the
 * same parts; every call counted at the store's access log.
 */
class DatasetPropertiesStoreTest {

    private static final String S3 = "it-props-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT = "it-props-sw-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.withStork("stork-dataset-properties", S3, SWIFT).getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3, SWIFT);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    /** The dataset tool in this JVM with the buckets' connection settings only: no retention key anywhere. */
    private static int tool(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        for (Map.Entry<String, String> e : spark.sparkContext().hadoopConfiguration()) {
            if (e.getKey().startsWith("fs.stork.bucket.")) {
                assertThat(e.getKey()).doesNotEndWith(".retention");
                all.add(0, "-D" + e.getKey() + "=" + e.getValue());
            }
        }
        return io.stork.commit.DatasetToolAccess.run(all.toArray(new String[0]));
    }

    private static Map<CallType, Long> counted(AccessLog.Window window) {
        Map<CallType, Long> calls = new EnumMap<>(window.counts().byType());
        calls.remove(CallType.AUTH); // the tool's own Swift session
        return calls;
    }

    private static Manifest manifest(String dataset) throws IOException {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, new Path(dataset).toUri().getAuthority());
        try (InputStream in = fs.open(new Path(dataset, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    /** The dataset's objects as the store holds them. */
    private static List<String> objects(String dataset) throws IOException {
        Configuration raw = new Configuration(spark.sparkContext().hadoopConfiguration());
        raw.setBoolean("fs.stork.read.raw", true);
        raw.setBoolean("fs.stork.impl.disable.cache", true);
        List<String> keys = new ArrayList<>();
        try (FileSystem fs = FileSystem.newInstance(new Path(dataset).toUri(), raw)) {
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(dataset), true);
            while (it.hasNext()) {
                keys.add(it.next().getPath().toUri().getPath());
            }
        }
        return keys;
    }

    private static List<String> parts(String dataset) throws IOException {
        String root = new Path(dataset).toUri().getPath();
        return manifest(dataset).parts().stream().map(p -> root + "/" + p.path()).toList();
    }

    /** Generation 1 (2 parts, with the write's options), then an overwrite: generation 1's parts are retained. */
    private static List<String> twoGenerations(String dataset, Map<String, String> options) throws IOException {
        spark.range(0, 100).repartition(2).toDF("id").write().options(options).mode(SaveMode.Overwrite).parquet(dataset);
        List<String> first = parts(dataset);
        spark.range(100, 130).coalesce(1).toDF("id").write().mode(SaveMode.Overwrite).parquet(dataset);
        return first;
    }

    @Test
    void aSessionWithoutTheKeyVacuumsByTheDatasetsRetention() throws Exception {
        for (String bucket : List.of(S3, SWIFT)) {
            String own = "stork://" + bucket + "/own";
            String plain = "stork://" + bucket + "/plain";
            List<String> ownFirst = twoGenerations(own, Map.of("stork.retention", "1ms"));
            List<String> plainFirst = twoGenerations(plain, Map.of());
            assertThat(manifest(own).properties()).containsEntry("stork.retention", "1ms");
            Thread.sleep(5);

            assertThat(tool("vacuum", "-Dfs.stork.maintenance.retention.check=false", plain)).isZero();
            assertThat(objects(plain)).as(bucket + ": the default 7 days keep generation 1").containsAll(plainFirst);

            AccessLog.Window vacuum = LocalStore.shared().accessLog().openWindow();
            assertThat(tool("vacuum", "-Dfs.stork.maintenance.retention.check=false", own)).isZero();
            Map<CallType, Long> vacuumCalls = counted(vacuum);
            System.out.println(bucket + " vacuum by the dataset's retention: " + vacuumCalls);
            assertThat(vacuumCalls).as(bucket + ": the manifest, one listing, one bulk delete")
                    .isEqualTo(Map.of(CallType.GET, 1L, CallType.LIST, 1L, CallType.BULK_DELETE, 1L));
            assertThat(objects(own)).as(bucket + ": the dataset's 1 ms: generation 1's two parts deleted")
                    .doesNotContainAnyElementsOf(ownFirst).containsAll(parts(own));
            assertThat(spark.read().parquet(own).count()).isEqualTo(30);

            // set-property on the plain dataset: one generation naming the same parts, then vacuum by it.
            Manifest before = manifest(plain);
            AccessLog.Window set = LocalStore.shared().accessLog().openWindow();
            assertThat(tool("set-property", plain, "stork.retention=1ms")).isZero();
            Map<CallType, Long> setCalls = counted(set);
            System.out.println(bucket + " set-property: " + setCalls);
            Manifest after = manifest(plain);
            assertThat(after.generation()).isEqualTo(before.generation() + 1);
            assertThat(after.parts()).isEqualTo(before.parts());
            assertThat(after.properties()).containsEntry("stork.retention", "1ms");
            // No data read, copied or listed: the manifest, then the commit. On S3 the new manifest's PUT; on
            // Swift, whose creates are not atomic, a claim of the generation, then the claim read back after
            // the settle delay, then the manifest (as every commit there; SnapshotStoreTest's restore likewise).
            assertThat(setCalls).as(bucket).isEqualTo(bucket.equals(S3)
                    ? Map.of(CallType.GET, 1L, CallType.PUT, 1L) : Map.of(CallType.GET, 2L, CallType.PUT, 2L));
            Thread.sleep(5);
            assertThat(tool("vacuum", "-Dfs.stork.maintenance.retention.check=false", plain)).isZero();
            assertThat(objects(plain)).doesNotContainAnyElementsOf(plainFirst).containsAll(parts(plain));
            assertThat(spark.read().parquet(plain).count()).isEqualTo(30);
        }
    }
}
