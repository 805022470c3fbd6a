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
 * A Spark job that writes one object (one task), run as a user runs it: one session with Stork's extension,
 * hadoop-aws and spark-hadoop-cloud on the class path. Through Stork (S3 API, Swift API) and, in the same
 * session, through S3A with the committer Spark 4 picks (magic) and with Hadoop's classic
 * FileOutputCommitter (S3A's "file" committer, algorithm 1), against the same local store. Each row states
 * the protocol and committer that actually ran, read back from the job (the session's protocol, the
 * {@code _SUCCESS} the job wrote), and the REST calls counted at the store's access log.
 */
public final class CommitDemo {

    private record Scenario(String name, String path, Map<String, String> hadoopConf) {
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
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                .config("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", "1")
                // S3A against this store (see docs/benchmarks): plain HTTP, path-style, unsigned payloads.
                .config("spark.hadoop.fs.s3a.endpoint", local.s3Endpoint().toString())
                .config("spark.hadoop.fs.s3a.endpoint.region", local.s3Region())
                .config("spark.hadoop.fs.s3a.path.style.access", "true")
                .config("spark.hadoop.fs.s3a.connection.ssl.enabled", "false")
                .config("spark.hadoop.fs.s3a.signing-algorithm", "AWS4UnsignedPayloadSignerType")
                .config("spark.hadoop.fs.s3a.access.key", local.s3AccessKey())
                .config("spark.hadoop.fs.s3a.secret.key", local.s3SecretKey());
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
                    new Scenario("Stork, S3 API", "stork://" + s3Bucket + "/one-object", Map.of()),
                    new Scenario("Stork, Swift API", "stork://" + swiftBucket + "/one-object", Map.of()),
                    new Scenario("S3A, Spark 4's default", "s3a://" + s3Bucket + "/one-object-s3a-default", Map.of()),
                    new Scenario("S3A, committer \"file\"", "s3a://" + s3Bucket + "/one-object-s3a-file",
                            Map.of("fs.s3a.committer.name", "file")));
            System.out.println("Spark job: spark.range(1).coalesce(1).write.text(path): one task, one object; one session");
            System.out.println("with spark.sql.extensions=io.stork.spark.StorkSparkExtensions, hadoop-aws and spark-hadoop-cloud.");
            System.out.println("REST calls counted at the store's access log (same store, same run); protocol and committer");
            System.out.println("as they ran: the session's protocol for the path, and the _SUCCESS the job wrote.");
            System.out.println();
            System.out.printf("%-24s %-58s %-52s %5s%n", "scenario", "protocol / committer (read back)",
                    "write: calls by type", "total");
            var hadoopConf = spark.sparkContext().hadoopConfiguration();
            for (Scenario scenario : scenarios) {
                scenario.hadoopConf().forEach(hadoopConf::set);
                AccessLog.Window write = log.openWindow();
                spark.range(1).selectExpr("CAST(id AS STRING) AS value").coalesce(1).write().text(scenario.path());
                StoreCallCounts written = write.counts();
                AccessLog.Window read = log.openWindow();
                List<Row> rows = spark.read().text(scenario.path()).collectAsList();
                StoreCallCounts readBack = read.counts();
                scenario.hadoopConf().keySet().forEach(hadoopConf::unset);
                if (rows.size() != 1 || !rows.get(0).getString(0).equals("0")) {
                    throw new IllegalStateException(scenario.name() + ": read back " + rows + ", expected [0]");
                }
                String ran = RanCommitter.describe(spark, scenario.path());
                System.out.printf("%-24s %-58s %-52s %5d%n", scenario.name(), ran, written.callsByType(), written.total());
                System.out.printf("%-24s %-58s %-52s %5d%n", "  reading it back", "", readBack.callsByType(),
                        readBack.total());
                Map<CallType, Long> byType = written.byType();
                if (scenario.path().startsWith("stork:") && (byType.containsKey(CallType.COPY)
                        || byType.containsKey(CallType.DELETE) || written.total() > 3 || !ran.contains("Stork"))) {
                    throw new IllegalStateException(scenario.name() + ": expected Stork's protocol, at most 3 calls, "
                            + "no COPY, no DELETE; ran " + ran);
                }
            }
            System.out.println();
            System.out.println("Stork writes the part at its final name and commits with one manifest (_SUCCESS):");
            System.out.println("no rename, so no COPY and no DELETE; reading lists nothing: the manifest names the parts.");
            System.out.println("S3A's magic committer avoids the copy with a multipart upload completed at job commit;");
            System.out.println("Hadoop's classic committer renames twice (COPY + DELETE per object).");
        } finally {
            spark.stop();
        }
    }
}
