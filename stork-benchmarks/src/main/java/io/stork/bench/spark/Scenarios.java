package io.stork.bench.spark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The connectors measured, each with the settings that make it run against the local store. The peers'
 * settings follow shared/notes/peers-on-this-store.md: only what this store requires, defaults otherwise.
 */
public final class Scenarios {

    private static final String STOCATOR_SERVICE = "bench";
    /** Stocator's Swift path with non-streaming uploads, for Parquet (see {@link #stocatorSwift}). */
    private static final String STOCATOR_SWIFT_COLUMNAR_SERVICE = "benchpq";

    private Scenarios() {
    }

    /**
     * Spark 4, when spark-hadoop-cloud is on the class path (it is here, for the magic scenario), makes S3A's
     * magic committer and {@code PathOutputCommitProtocol} the session's defaults unless
     * {@code fs.s3a.committer.magic.enabled} is false; every other scenario turns that off, or it would not
     * run with its own committer.
     */
    private static final String SPARK_AUTO_MAGIC = "spark.hadoop.fs.s3a.committer.magic.enabled";

    public static List<Scenario> all(StoreEndpoint store) {
        return List.of(storkS3(store), storkSwift(store), s3aClassic(store, 1), s3aClassic(store, 2),
                s3aMagic(store), s3aAnalytics(store), stocatorCos(store), stocatorSwift(store));
    }

    public static Scenario byId(StoreEndpoint store, String id) {
        return all(store).stream().filter(s -> s.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown scenario '" + id + "'; known: "
                        + String.join(", ", ids(store))));
    }

    public static List<String> ids(StoreEndpoint store) {
        return all(store).stream().map(Scenario::id).toList();
    }

    static Scenario storkS3(StoreEndpoint store) {
        return stork(store, "stork-s3", "Stork (S3 API)", "S3", "s3");
    }

    static Scenario storkSwift(StoreEndpoint store) {
        return stork(store, "stork-swift", "Stork (Swift API)", "Swift", "swift");
    }

    private static Scenario stork(StoreEndpoint store, String id, String label, String api, String storkApi) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put(SPARK_AUTO_MAGIC, "false");
        // The one setting that turns on Stork's commit protocol (and per-part record counts).
        conf.put("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions");
        // Queries' history written when the session stops, not inside a measured workload.
        conf.put("spark.stork.layout.history.flushInterval", "1h");
        conf.put("spark.hadoop.fs.stork.api", storkApi);
        conf.put("spark.hadoop.fs.stork.endpoint", store.s3Endpoint().toString());
        conf.put("spark.hadoop.fs.stork.region", store.region());
        conf.put("spark.hadoop.fs.stork.access.key", store.accessKey());
        conf.put("spark.hadoop.fs.stork.access.secret", store.secretKey());
        conf.put("spark.hadoop.fs.stork.swift.auth.url", store.swiftAuthUrl().toString());
        conf.put("spark.hadoop.fs.stork.swift.user", store.swiftUser());
        conf.put("spark.hadoop.fs.stork.swift.password", store.swiftKey());
        return new Scenario(id, label, api, "stork://{bucket}/{path}", "stork://{bucket}/{path}", conf,
                "defaults; Stork's commit protocol through spark.sql.extensions (Spark 4's automatic magic committer off)");
    }

    private static Map<String, String> s3aBase(StoreEndpoint store) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.hadoop.fs.s3a.endpoint", store.s3Endpoint().toString());
        conf.put("spark.hadoop.fs.s3a.endpoint.region", store.region());
        conf.put("spark.hadoop.fs.s3a.path.style.access", "true");
        conf.put("spark.hadoop.fs.s3a.connection.ssl.enabled", "false");
        // Over plain HTTP the SDK would sign payloads as aws-chunked, which s3api rejects (501).
        conf.put("spark.hadoop.fs.s3a.signing-algorithm", "AWS4UnsignedPayloadSignerType");
        conf.put("spark.hadoop.fs.s3a.access.key", store.accessKey());
        conf.put("spark.hadoop.fs.s3a.secret.key", store.secretKey());
        return conf;
    }

    static Scenario s3aClassic(StoreEndpoint store, int algorithm) {
        Map<String, String> conf = s3aBase(store);
        conf.put(SPARK_AUTO_MAGIC, "false");
        conf.put("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", Integer.toString(algorithm));
        return new Scenario("s3a-v" + algorithm, "S3A, FileOutputCommitter v" + algorithm, "S3",
                "s3a://{bucket}/{path}", "s3a://{bucket}/{path}", conf,
                "hadoop-aws 3.4.2; Spark's default commit protocol, classic FileOutputCommitter algorithm "
                        + algorithm + " (Spark 4's automatic magic committer off)");
    }

    static Scenario s3aMagic(StoreEndpoint store) {
        Map<String, String> conf = s3aBase(store);
        conf.put("spark.hadoop.fs.s3a.committer.name", "magic");
        conf.put(SPARK_AUTO_MAGIC, "true");
        conf.put("spark.hadoop.mapreduce.outputcommitter.factory.scheme.s3a",
                "org.apache.hadoop.fs.s3a.commit.S3ACommitterFactory");
        conf.put("spark.sql.sources.commitProtocolClass",
                "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol");
        conf.put("spark.sql.parquet.output.committer.class",
                "org.apache.spark.internal.io.cloud.BindingParquetOutputCommitter");
        return new Scenario("s3a-magic", "S3A, magic committer", "S3", "s3a://{bucket}/{path}",
                "s3a://{bucket}/{path}", conf, "hadoop-aws 3.4.2 magic committer through spark-hadoop-cloud 4.1.2");
    }

    /**
     * S3A reading through its analytics input stream (the Analytics Accelerator Library, hadoop-aws 3.4.2's
     * {@code fs.s3a.input.stream.type=analytics}: footer prefetching, small objects whole, a block cache),
     * a read peer; it writes as the magic scenario does.
     */
    static Scenario s3aAnalytics(StoreEndpoint store) {
        Scenario magic = s3aMagic(store);
        Map<String, String> conf = new LinkedHashMap<>(magic.sparkConf());
        conf.put("spark.hadoop.fs.s3a.input.stream.type", "analytics");
        return new Scenario("s3a-analytics", "S3A, analytics input stream", "S3", "s3a://{bucket}/{path}",
                "s3a://{bucket}/{path}", conf, "hadoop-aws 3.4.2 with fs.s3a.input.stream.type=analytics "
                        + "(Analytics Accelerator Library 1.2.1); writes as the magic scenario");
    }

    static Scenario stocatorCos(StoreEndpoint store) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put(SPARK_AUTO_MAGIC, "false");
        String service = "spark.hadoop.fs.cos." + STOCATOR_SERVICE + ".";
        conf.put("spark.hadoop.fs.cos.impl", "com.ibm.stocator.fs.ObjectStoreFileSystem");
        conf.put("spark.hadoop.fs.stocator.scheme.list", "cos");
        conf.put("spark.hadoop.fs.stocator.cos.impl", "com.ibm.stocator.fs.cos.COSAPIClient");
        conf.put("spark.hadoop.fs.stocator.cos.scheme", "cos");
        conf.put(service + "endpoint", store.s3Endpoint().toString());
        conf.put(service + "access.key", store.accessKey());
        conf.put(service + "secret.key", store.secretKey());
        // Its SigV4 signer also sends aws-chunked over HTTP (501 from s3api); SigV2 is accepted.
        conf.put(service + "v2.signer.type", "true");
        // Stocator falls back to fs.s3a.* for these and parses them as plain numbers, but Hadoop 3.4's
        // defaults carry units ("30s", "64M"): give each its own key, with Stocator's own defaults.
        Map<String, String> plainNumbers = Map.ofEntries(
                Map.entry("threads.max", "10"), Map.entry("max.total.tasks", "5"),
                Map.entry("threads.keepalivetime", "60"), Map.entry("connection.maximum", "10000"),
                Map.entry("attempts.maximum", "20"), Map.entry("connection.establish.timeout", "50000"),
                Map.entry("connection.timeout", "800000"), Map.entry("request.timeout", "500000"),
                Map.entry("client.execution.timeout", "500000"), Map.entry("multipart.size", "8388608"),
                Map.entry("multipart.threshold", "2147483647"), Map.entry("readahead.range", "65536"),
                Map.entry("paging.maximum", "5000"), Map.entry("multipart.purge.age", "86400"),
                Map.entry("socket.send.buffer", "8192"), Map.entry("socket.recv.buffer", "8192"));
        new java.util.TreeMap<>(plainNumbers).forEach((k, v) -> conf.put("spark.hadoop.fs.cos." + k, v));
        return new Scenario("stocator-cos", "Stocator 1.1.4 (S3 API, cos://)", "S3",
                "cos://{bucket}." + STOCATOR_SERVICE + "/{path}", "cos://{bucket}." + STOCATOR_SERVICE + "/{path}",
                conf, "SigV2 signing (its SigV4 sends aws-chunked over HTTP); numeric fs.cos.* keys set as plain "
                        + "numbers (its fallback to Hadoop 3.4's fs.s3a.* defaults fails on units)");
    }

    static Scenario stocatorSwift(StoreEndpoint store) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put(SPARK_AUTO_MAGIC, "false");
        conf.put("spark.hadoop.fs.swift2d.impl", "com.ibm.stocator.fs.ObjectStoreFileSystem");
        for (String service : List.of(STOCATOR_SERVICE, STOCATOR_SWIFT_COLUMNAR_SERVICE)) {
            String prefix = "spark.hadoop.fs.swift2d.service." + service + ".";
            conf.put(prefix + "auth.url", store.swiftAuthUrl().toString());
            conf.put(prefix + "username", store.swiftUser());
            conf.put(prefix + "password", store.swiftKey());
            conf.put(prefix + "tenant", store.swiftUser().split(":")[0]);
            conf.put(prefix + "public", "false");
            // Mandatory even with tempauth (any value); "swiftauth" sends a malformed user (401).
            conf.put(prefix + "region", "local");
            conf.put(prefix + "auth.method", "basic");
        }
        // Its streaming upload connects only after 64 KB or at close, and Parquet flushes before closing:
        // a Parquet object under 64 KB fails ("Pipe not connected"). Parquet goes through a second service
        // name with non-streaming (buffered) uploads; text keeps the default streaming upload.
        conf.put("spark.hadoop.fs.swift2d.service." + STOCATOR_SWIFT_COLUMNAR_SERVICE + ".nonstreaming.upload",
                "true");
        return new Scenario("stocator-swift", "Stocator 1.1.4 (Swift API, swift2d://)", "Swift",
                "swift2d://{bucket}." + STOCATOR_SERVICE + "/{path}",
                "swift2d://{bucket}." + STOCATOR_SWIFT_COLUMNAR_SERVICE + "/{path}", conf,
                "auth.method=basic and a region (tempauth); Parquet through a service with nonstreaming.upload=true "
                        + "(its streaming upload fails on Parquet objects under 64 KB)");
    }
}
