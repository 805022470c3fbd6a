package io.stork.demo;

import io.stork.hadoop.StorkFileSystem;
import io.stork.store.CallType;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark job that writes one object (one task), run through Stork (S3 API and Swift API, with Stork's
 * commit protocol) and through S3A with Hadoop's classic FileOutputCommitter (algorithm 1), against the
 * same local store; the REST calls of each, counted at the store's access log, side by side.
 */
public final class CommitDemo {

    private static final String SPARK_DEFAULT_PROTOCOL =
            "org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol";

    private record Scenario(String name, String path, String protocol) {
    }

    private CommitDemo() {
    }

    public static void main(String[] args) throws Exception {
        LocalStore local = LocalStore.shared();
        AccessLog log = local.accessLog();
        String id = UUID.randomUUID().toString().substring(0, 8);
        String s3Bucket = "stork-demo-s3-" + id;
        String swiftBucket = "stork-demo-swift-" + id;
        SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("stork-demo")
                .config("spark.ui.enabled", "false")
                .config("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", "1")
                // S3A against this store (see docs/benchmarks): plain HTTP, path-style, unsigned payloads.
                .config("spark.hadoop.fs.s3a.endpoint", local.s3Endpoint().toString())
                .config("spark.hadoop.fs.s3a.endpoint.region", local.s3Region())
                .config("spark.hadoop.fs.s3a.path.style.access", "true")
                .config("spark.hadoop.fs.s3a.connection.ssl.enabled", "false")
                .config("spark.hadoop.fs.s3a.signing-algorithm", "AWS4UnsignedPayloadSignerType")
                .config("spark.hadoop.fs.s3a.access.key", local.s3AccessKey())
                .config("spark.hadoop.fs.s3a.access.secret", local.s3SecretKey());
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
        SparkSession spark = builder.getOrCreate();
        try {
            for (String bucket : List.of(s3Bucket, swiftBucket)) {
                ((StorkFileSystem) new Path("stork://" + bucket + "/").getFileSystem(
                        spark.sparkContext().hadoopConfiguration())).store().createBucket(bucket);
            }
            List<Scenario> scenarios = List.of(
                    new Scenario("Stork, S3 API, Stork commit", "stork://" + s3Bucket + "/one-object",
                            "io.stork.commit.StorkCommitProtocol"),
                    new Scenario("Stork, Swift API, Stork commit", "stork://" + swiftBucket + "/one-object",
                            "io.stork.commit.StorkCommitProtocol"),
                    new Scenario("S3A, classic FileOutputCommitter v1", "s3a://" + s3Bucket + "/one-object-s3a",
                            SPARK_DEFAULT_PROTOCOL));
            System.out.println("Spark job: spark.range(1).coalesce(1).write.text(path): one task, one object.");
            System.out.println("REST calls counted at the store's access log (same store, same run):");
            System.out.println();
            System.out.printf("%-38s %-62s %5s%n", "scenario", "write: calls by type", "total");
            for (Scenario scenario : scenarios) {
                spark.conf().set("spark.sql.sources.commitProtocolClass", scenario.protocol());
                AccessLog.Window write = log.openWindow();
                spark.range(1).selectExpr("CAST(id AS STRING) AS value").coalesce(1).write().text(scenario.path());
                StoreCallCounts written = write.counts();
                AccessLog.Window read = log.openWindow();
                List<Row> rows = spark.read().text(scenario.path()).collectAsList();
                StoreCallCounts readBack = read.counts();
                if (rows.size() != 1 || !rows.get(0).getString(0).equals("0")) {
                    throw new IllegalStateException(scenario.name() + ": read back " + rows + ", expected [0]");
                }
                System.out.printf("%-38s %-62s %5d%n", scenario.name(), written.callsByType(), written.total());
                System.out.printf("%-38s %-62s %5d%n", "  reading it back", readBack.callsByType(), readBack.total());
                Map<CallType, Long> byType = written.byType();
                if (scenario.protocol().contains("Stork") && (byType.containsKey(CallType.COPY)
                        || byType.containsKey(CallType.DELETE) || written.total() > 3)) {
                    throw new IllegalStateException(scenario.name() + ": expected at most 3 calls, no COPY, no DELETE");
                }
            }
            System.out.println();
            System.out.println("Stork writes the part at its final name and commits with one manifest (_SUCCESS):");
            System.out.println("no rename, so no COPY and no DELETE; reading lists nothing: the manifest names the parts.");
        } finally {
            spark.stop();
        }
    }
}
