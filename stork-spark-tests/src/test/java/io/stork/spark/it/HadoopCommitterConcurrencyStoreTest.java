package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.PartNames;
import java.io.InputStream;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import scala.Tuple2;

/**
 * Concurrent commits through the Hadoop committer against the real store. Its own Spark session: RDD
 * appends to an existing output need Spark's output-spec check off, which would change the call counts
 * {@link HadoopCommitterStoreTest} asserts.
 */
class HadoopCommitterConcurrencyStoreTest {

    private static final String S3_BUCKET = "it-rddc-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-rddc-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-rdd-concurrent", S3_BUCKET, SWIFT_BUCKET)
                .config("spark.hadoop.mapreduce.outputcommitter.factory.scheme.stork",
                        "io.stork.commit.StorkCommitterFactory")
                .config("spark.hadoop.validateOutputSpecs", "false")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    /**
     * Concurrent appends through the Hadoop committer (Swift: claims arbitrate): three jobs writing into
     * one existing output at once (output checks off, as appending RDD jobs run), every part of every job
     * in the final generation.
     */
    @org.junit.jupiter.api.Test
    void concurrentHadoopCommitterJobsLoseNothingOnSwift() throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, SWIFT_BUCKET);
        String path = "stork://" + SWIFT_BUCKET + "/rdd-concurrent-" + UUID.randomUUID().toString().substring(0, 8);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(sc.hadoopConfiguration());
        conf.set("mapreduce.output.fileoutputformat.outputdir", path);
        sc.parallelize(List.of("first"), 1).mapToPair(line -> new Tuple2<>(NullWritable.get(), new Text(line)))
                .saveAsNewAPIHadoopFile(path, NullWritable.class, Text.class, TextOutputFormat.class, conf);
        int jobs = 3;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(jobs);
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(jobs);
        List<java.util.concurrent.Future<?>> running = new java.util.ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            int job = j;
            running.add(pool.submit(() -> {
                start.await();
                // Appending to an existing output: Spark's output-spec check (directory exists) is off.
                sc.sc().setLocalProperty("spark.job.description", "append " + job);
                sc.parallelize(List.of("job" + job + "-a", "job" + job + "-b"), 2)
                        .mapToPair(line -> new Tuple2<>(NullWritable.get(), new Text(line)))
                        .saveAsNewAPIHadoopFile(path, NullWritable.class, Text.class, TextOutputFormat.class, conf);
                return null;
            }));
        }
        for (java.util.concurrent.Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
        Manifest manifest;
        try (InputStream in = fs.open(new Path(path, PartNames.MANIFEST))) {
            manifest = ManifestCodec.read(in, path);
        }
        assertThat(manifest.generation()).isEqualTo(1 + jobs);
        assertThat(manifest.parts()).hasSize(1 + 2 * jobs);
        assertThat(sc.textFile(path).collect()).containsExactlyInAnyOrder("first", "job0-a", "job0-b", "job1-a",
                "job1-b", "job2-a", "job2-b");
    }
}
