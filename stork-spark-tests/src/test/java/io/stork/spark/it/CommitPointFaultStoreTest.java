package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.store.ObjectKey;
import io.stork.localstore.FaultInjectingProxy;
import io.stork.localstore.FaultInjectingProxy.Fault;
import io.stork.localstore.LocalStore;
import java.io.InputStream;
import java.util.List;
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
 * The commit point under lost answers, against the real store through both APIs: a proxy between Spark
 * and the store forwards a commit call, lets the store apply it, and then resets the connection instead
 * of relaying the answer. Every commit path must end in exactly one consistent generation, never in a
 * lost or doubled commit, and never delete parts a written manifest names.
 */
class CommitPointFaultStoreTest {

    private static final String S3_BUCKET = "it-lost-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-lost-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static FaultInjectingProxy proxy;
    private static SparkSession spark;

    @BeforeAll
    static void start() throws Exception {
        LocalStore local = LocalStore.shared();
        proxy = new FaultInjectingProxy(local.port());
        String via = "http://127.0.0.1:" + proxy.port();
        SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("stork-lost-answers")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not inside a counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .config("spark.hadoop.mapreduce.outputcommitter.factory.scheme.stork",
                        "io.stork.commit.StorkCommitterFactory");
        for (String[] bucket : new String[][] {{S3_BUCKET, "s3"}, {SWIFT_BUCKET, "swift"}}) {
            String prefix = "spark.hadoop.fs.stork.bucket." + bucket[0] + ".";
            builder.config(prefix + "api", bucket[1])
                    .config(prefix + "endpoint", via)
                    .config(prefix + "access.key", local.s3AccessKey())
                    .config(prefix + "access.secret", local.s3SecretKey())
                    .config(prefix + "swift.auth.url", via + "/auth/v1.0")
                    .config(prefix + "swift.user", local.swiftUser())
                    .config(prefix + "swift.password", local.swiftKey())
                    .config(prefix + "retry.interval", "50ms");
        }
        spark = builder.getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stop() throws Exception {
        if (spark != null) {
            spark.stop();
        }
        if (proxy != null) {
            proxy.close();
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

    /** The answer to the next PUT of an object named {@code name} (the request line ends with it) is lost. */
    private static void loseAnswerToPutOf(String name) {
        proxy.failNext(1, Fault.FORWARD_THEN_DROP_ANSWER,
                line -> line.startsWith("PUT ") && line.contains("/" + name + " "));
    }

    private static void assertEveryPartIsThere(StorkFileSystem fs, String dataset, Manifest manifest) throws Exception {
        String root = new Path(dataset).toUri().getPath().substring(1);
        for (ManifestPart part : manifest.parts()) {
            assertThat(fs.store().head(ObjectKey.of(fs.getUri().getAuthority(), root + "/" + part.path())).length())
                    .as(part.path()).isEqualTo(part.length());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aDataFrameWriteWhoseManifestAnswerIsLostCommitsOnce(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "sql");
        int before = proxy.injectedFaults().size();
        loseAnswerToPutOf(PartNames.MANIFEST);

        spark.range(0, 1600, 1, 16).write().parquet(path);

        assertThat(proxy.injectedFaults()).hasSize(before + 1);
        Manifest manifest = manifest(fs, path);
        assertThat(manifest.generation()).isEqualTo(1);
        assertThat(manifest.parts()).hasSize(16);
        assertEveryPartIsThere(fs, path, manifest);
        assertThat(spark.read().parquet(path).count()).isEqualTo(1600);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void anAppendWhoseClaimAndManifestAnswersAreLostCommitsOneGeneration(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "append");
        spark.range(0, 100, 1, 2).write().parquet(path);
        int before = proxy.injectedFaults().size();
        loseAnswerToPutOf(PartNames.INTERNAL_DIRECTORY + "/generation-2"); // claimed on Swift only
        loseAnswerToPutOf(PartNames.MANIFEST);

        spark.range(100, 300, 1, 2).write().mode(SaveMode.Append).parquet(path);

        assertThat(proxy.injectedFaults()).hasSize(before + (api.equals("swift") ? 2 : 1));
        Manifest manifest = manifest(fs, path);
        assertThat(manifest.generation()).isEqualTo(2);
        assertThat(manifest.parts()).hasSize(4);
        assertEveryPartIsThere(fs, path, manifest);
        assertThat(spark.read().parquet(path).count()).isEqualTo(300);
        assertThat(spark.read().parquet(path).selectExpr("sum(id)").first().getLong(0)).isEqualTo(299L * 300 / 2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void theClassicCommitterEmulationSettlesALostManifestAnswerToo(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "rdd");
        int before = proxy.injectedFaults().size();
        loseAnswerToPutOf(PartNames.MANIFEST);

        new JavaSparkContext(spark.sparkContext()).parallelize(List.of("a", "b", "c", "d"), 2).saveAsTextFile(path);

        assertThat(proxy.injectedFaults()).hasSize(before + 1);
        Manifest manifest = manifest(fs, path);
        assertThat(manifest.generation()).isEqualTo(1);
        assertThat(manifest.parts()).hasSize(2);
        assertEveryPartIsThere(fs, path, manifest);
        assertThat(new JavaSparkContext(spark.sparkContext()).textFile(path).collect())
                .containsExactlyInAnyOrder("a", "b", "c", "d");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void theHadoopCommitterSettlesALostManifestAnswerToo(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "newapi");
        int before = proxy.injectedFaults().size();
        loseAnswerToPutOf(PartNames.MANIFEST);

        JavaSparkContext sc = new JavaSparkContext(spark.sparkContext());
        sc.parallelize(List.of("a", "b", "c"), 3)
                .mapToPair(line -> new scala.Tuple2<>(org.apache.hadoop.io.NullWritable.get(),
                        new org.apache.hadoop.io.Text(line)))
                .saveAsNewAPIHadoopFile(path, org.apache.hadoop.io.NullWritable.class, org.apache.hadoop.io.Text.class,
                        org.apache.hadoop.mapreduce.lib.output.TextOutputFormat.class, sc.hadoopConfiguration());

        assertThat(proxy.injectedFaults()).hasSize(before + 1);
        Manifest manifest = manifest(fs, path);
        assertThat(manifest.generation()).isEqualTo(1);
        assertThat(manifest.parts()).hasSize(3);
        assertEveryPartIsThere(fs, path, manifest);
        assertThat(sc.textFile(path).collect()).containsExactlyInAnyOrder("a", "b", "c");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void vacuumSettlesALostBulkDeleteAnswerByRepeatingIt(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "vacuum");
        spark.range(0, 100, 1, 2).write().parquet(path);
        spark.range(0, 10, 1, 1).write().mode(org.apache.spark.sql.SaveMode.Overwrite).parquet(path);
        Manifest current = manifest(fs, path);
        assertThat(current.removed()).hasSize(2);
        int before = proxy.injectedFaults().size();
        // S3 bulk delete is a POST ?delete; Swift's a POST ?bulk-delete.
        proxy.failNext(1, Fault.FORWARD_THEN_DROP_ANSWER, line -> line.startsWith("POST ") && line.contains("delete"));

        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("vacuum", "--retention", "0s",
                "-Dfs.stork.maintenance.retention.check=false", path));
        for (java.util.Map.Entry<String, String> e : spark.sparkContext().hadoopConfiguration()) {
            if (e.getKey().startsWith("fs.stork.bucket.")) {
                args.add(0, "-D" + e.getKey() + "=" + e.getValue());
            }
        }
        assertThat(io.stork.commit.DatasetToolAccess.run(args.toArray(new String[0]))).isZero();

        assertThat(proxy.injectedFaults()).hasSize(before + 1);
        String root = new Path(path).toUri().getPath().substring(1);
        for (io.stork.manifest.RemovedPart removed : current.removed()) {
            assertThat(fs.store().list(io.stork.store.ListRequest.of(bucket(api), root + "/" + removed.part().path()))
                    .hasNext()).as(removed.part().path()).isFalse();
        }
        assertThat(spark.read().parquet(path).count()).isEqualTo(10);
    }
}
