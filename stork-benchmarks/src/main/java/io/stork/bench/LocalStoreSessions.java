package io.stork.bench;

import io.stork.localstore.LocalStore;
import org.apache.spark.sql.SparkSession;

/** The Spark settings every benchmark needs to reach the local store: Stork over its S3 API, and S3A. */
public final class LocalStoreSessions {

    private LocalStoreSessions() {
    }

    /** {@code builder} with stork:// (S3 API) and s3a:// pointed at {@code store}. */
    public static SparkSession.Builder storkAndS3a(SparkSession.Builder builder, LocalStore store) {
        return builder
                .config("spark.hadoop.fs.stork.api", "s3")
                .config("spark.hadoop.fs.stork.endpoint", store.s3Endpoint().toString())
                .config("spark.hadoop.fs.stork.region", store.s3Region())
                .config("spark.hadoop.fs.stork.access.key", store.s3AccessKey())
                .config("spark.hadoop.fs.stork.access.secret", store.s3SecretKey())
                .config("spark.hadoop.fs.s3a.endpoint", store.s3Endpoint().toString())
                .config("spark.hadoop.fs.s3a.endpoint.region", store.s3Region())
                .config("spark.hadoop.fs.s3a.path.style.access", "true")
                .config("spark.hadoop.fs.s3a.connection.ssl.enabled", "false")
                .config("spark.hadoop.fs.s3a.signing-algorithm", "AWS4UnsignedPayloadSignerType")
                .config("spark.hadoop.fs.s3a.access.key", store.s3AccessKey())
                .config("spark.hadoop.fs.s3a.secret.key", store.s3SecretKey());
    }
}
