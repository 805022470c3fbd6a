package io.stork.spark.it;

import io.stork.hadoop.StorkFileSystem;
import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/** A local-mode Spark session whose stork:// buckets point at the shared local store, one per API. */
final class SparkOnLocalStore {

    private SparkOnLocalStore() {
    }

    /** A session builder (local[2]) with both buckets configured: one per API. */
    static SparkSession.Builder builder(String appName, String s3Bucket, String swiftBucket) throws IOException {
        LocalStore local = LocalStore.shared();
        SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName(appName)
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2");
        for (String[] bucket : new String[][] {{s3Bucket, "s3"}, {swiftBucket, "swift"}}) {
            String prefix = "spark.hadoop.fs.stork.bucket." + bucket[0] + ".";
            builder.config(prefix + "api", bucket[1])
                    .config(prefix + "endpoint", local.s3Endpoint().toString())
                    .config(prefix + "access.key", local.s3AccessKey())
                    .config(prefix + "access.secret", local.s3SecretKey())
                    .config(prefix + "swift.auth.url", local.swiftAuthUrl().toString())
                    .config(prefix + "swift.user", local.swiftUser())
                    .config(prefix + "swift.password", local.swiftKey());
        }
        return builder;
    }

    /**
     * {@link #builder} with Stork's extension, the queries' history written when the session stops (not
     * inside a window a test counts calls in).
     */
    static SparkSession.Builder withStork(String appName, String s3Bucket, String swiftBucket) throws IOException {
        return builder(appName, s3Bucket, swiftBucket)
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                .config("spark.stork.layout.history.flushInterval", "1h");
    }

    static void createBuckets(SparkSession spark, String... buckets) throws IOException {
        for (String bucket : buckets) {
            fileSystem(spark, bucket).store().createBucket(bucket);
        }
    }

    static SparkSession start(String appName, boolean storkCommitProtocol, String s3Bucket, String swiftBucket)
            throws IOException {
        SparkSession.Builder builder = builder(appName, s3Bucket, swiftBucket);
        if (storkCommitProtocol) {
            builder.config("spark.sql.sources.commitProtocolClass", "io.stork.commit.StorkCommitProtocol");
        }
        SparkSession spark = builder.getOrCreate();
        createBuckets(spark, s3Bucket, swiftBucket);
        return spark;
    }

    static StorkFileSystem fileSystem(SparkSession spark, String bucket) throws IOException {
        FileSystem fs = new Path("stork://" + bucket + "/").getFileSystem(spark.sparkContext().hadoopConfiguration());
        return (StorkFileSystem) fs;
    }

    interface Action {
        void run() throws Exception;
    }

    /**
     * Runs an action and returns the REST calls it made, counted at the store's access log; fails if the
     * client's own counters (of the bucket's file system) disagree.
     */
    static Map<CallType, Long> countedAtStore(StorkFileSystem fs, Action action) throws Exception {
        StatisticsSnapshot before = fs.store().statistics().snapshot();
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        action.run();
        StoreCallCounts atStore = window.counts();
        StatisticsSnapshot byClient = fs.store().statistics().snapshot().minus(before);
        // The calls themselves, for whoever reads a failing test's output.
        atStore.entries().forEach(e -> System.err.println("  store call: " + e.method() + " " + e.path()
                + (e.query() == null || e.query().isEmpty() ? "" : "?" + e.query()) + " -> " + e.status()));
        if (!atStore.agreesWith(byClient)) {
            throw new AssertionError("client and store disagree: store " + atStore.callsByType() + ", client "
                    + byClient);
        }
        return atStore.byType();
    }
}
