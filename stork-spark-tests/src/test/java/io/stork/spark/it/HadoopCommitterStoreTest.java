package io.stork.spark.it;

import static io.stork.spark.it.SparkOnLocalStore.countedAtStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.store.CallType;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import scala.Tuple2;

/**
 * RDD writes through Hadoop's new output-format API, with {@code StorkOutputCommitter} bound through the
 * committer factory for the stork scheme: parts at final names, task commits reported through Spark, a
 * manifest; and the old API through the classic committer's emulation (no extension in this session).
 */
class HadoopCommitterStoreTest {

    private static final String S3_BUCKET = "it-rdd-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-rdd-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-rdd", S3_BUCKET, SWIFT_BUCKET)
                .config("spark.hadoop.mapreduce.outputcommitter.factory.scheme.stork",
                        "io.stork.commit.StorkCommitterFactory")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void saveAsNewApiHadoopFileIsRenameFreeAndReadsBackThroughTheManifest(String api) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
        String path = "stork://" + bucket + "/rdd-" + UUID.randomUUID().toString().substring(0, 8);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<String> lines = IntStream.range(0, 300).mapToObj(i -> "line " + i).toList();
        JavaPairRDD<NullWritable, Text> rdd = sc.parallelize(lines, 3)
                .mapToPair(line -> new Tuple2<>(NullWritable.get(), new Text(line)));

        Map<CallType, Long> write = countedAtStore(fs, () -> rdd.saveAsNewAPIHadoopFile(path, NullWritable.class,
                Text.class, TextOutputFormat.class, sc.hadoopConfiguration()));
        assertThat(write).as("no COPY, no DELETE").doesNotContainKeys(CallType.COPY, CallType.DELETE,
                CallType.BULK_DELETE);
        assertThat(write.get(CallType.PUT)).as("3 parts, 1 manifest: task commits come back through Spark")
                .isEqualTo(4L);
        assertThat(write.get(CallType.LIST)).as("the output format's existence check; the output is new, so no "
                + "listing before the manifest, and Spark's staging directory is known empty").isEqualTo(1L);
        assertThat(write.get(CallType.GET)).as("the existence check's manifest probe").isEqualTo(1L);
        assertThat(write).doesNotContainKey(CallType.HEAD);

        Manifest manifest;
        try (InputStream in = fs.open(new Path(path, PartNames.MANIFEST))) {
            manifest = ManifestCodec.read(in, path);
        }
        assertThat(manifest.parts()).hasSize(3).allSatisfy(p -> {
            assertThat(PartNames.isAttemptNamed(p.path())).as(p.path()).isTrue();
            assertThat(p.length()).isPositive();
        });
        assertThat(manifest.parts()).extracting(ManifestPart::task).containsExactlyInAnyOrder(0, 1, 2);

        @SuppressWarnings("unchecked")
        List<String>[] read = new List[1];
        Map<CallType, Long> readCalls = countedAtStore(fs, () -> read[0] = sc.textFile(path).collect());
        assertThat(read[0]).containsExactlyInAnyOrderElementsOf(lines);
        assertThat(readCalls).doesNotContainKeys(CallType.LIST, CallType.HEAD);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void saveAsTextFileThroughHadoopsClassicCommitterIsRenameFreeToo(String api) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
        String path = "stork://" + bucket + "/classic-" + UUID.randomUUID().toString().substring(0, 8);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<String> lines = IntStream.range(0, 100).mapToObj(i -> "classic " + i).toList();

        Map<CallType, Long> write = countedAtStore(fs, () -> sc.parallelize(lines, 2).saveAsTextFile(path));
        assertThat(write).as("the old mapred API's classic committer, its tree emulated: nothing copied or deleted")
                .doesNotContainKeys(CallType.COPY, CallType.DELETE, CallType.BULK_DELETE);
        assertThat(write.get(CallType.PUT)).as("2 parts, 2 task markers, 1 manifest").isEqualTo(5L);

        Manifest manifest;
        try (InputStream in = fs.open(new Path(path, PartNames.MANIFEST))) {
            manifest = ManifestCodec.read(in, path);
        }
        assertThat(manifest.parts()).hasSize(2).allSatisfy(p -> assertThat(PartNames.isAttemptNamed(p.path())).isTrue());

        @SuppressWarnings("unchecked")
        List<String>[] read = new List[1];
        Map<CallType, Long> readCalls = countedAtStore(fs, () -> read[0] = sc.textFile(path).collect());
        assertThat(read[0]).containsExactlyInAnyOrderElementsOf(lines);
        assertThat(readCalls).doesNotContainKeys(CallType.LIST, CallType.HEAD);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void sparkSqlWithItsDefaultCommitProtocolIsRenameFreeThroughTheEmulation(String api) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
        String path = "stork://" + bucket + "/sql-default-" + UUID.randomUUID().toString().substring(0, 8);
        Map<CallType, Long> write = countedAtStore(fs, () -> spark.range(0, 30, 1, 3).selectExpr("id", "id % 2 AS k")
                .write().partitionBy("k").parquet(path));
        assertThat(write).doesNotContainKeys(CallType.COPY, CallType.DELETE, CallType.BULK_DELETE);
        assertThat(spark.read().parquet(path).count()).isEqualTo(30);
        assertThat(spark.read().parquet(path).where("k = 1").count()).isEqualTo(15);
    }
}
