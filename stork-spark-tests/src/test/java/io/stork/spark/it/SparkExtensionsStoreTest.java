package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.io.InputStream;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One setting, {@code spark.sql.extensions=io.stork.spark.StorkSparkExtensions}, and nothing else: writes to
 * stork:// commit with Stork's protocol and their manifests carry each part's record count.
 */
class SparkExtensionsStoreTest {

    private static final String S3_BUCKET = "it-ext-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-ext-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-extensions", S3_BUCKET, SWIFT_BUCKET)
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
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
    @CsvSource({"s3,parquet", "swift,parquet", "s3,csv", "swift,json"})
    void partsCarryTheirRecordCounts(String api, String format) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
        String path = "stork://" + bucket + "/ext-" + format + "-" + UUID.randomUUID().toString().substring(0, 8);
        spark.range(0, 101, 1, 4).selectExpr("id", "id % 2 AS k").write().partitionBy("k").format(format).save(path);

        Manifest manifest;
        try (InputStream in = fs.open(new Path(path, PartNames.MANIFEST))) {
            manifest = ManifestCodec.read(in, path);
        }
        assertThat(manifest.writer()).as("Stork's own protocol, chosen by the extension").startsWith("stork 0.1.0");
        assertThat(manifest.parts()).isNotEmpty().allSatisfy(p -> {
            assertThat(p.path()).as("a Stork attempt name").contains("-attempt-");
            assertThat(p.records()).isNotNull().isPositive();
        });
        assertThat(manifest.parts().stream().mapToLong(ManifestPart::records).sum()).isEqualTo(101);
        assertThat(manifest.parts().stream().filter(p -> p.directory().equals("k=1")).mapToLong(ManifestPart::records)
                .sum()).isEqualTo(50);
        assertThat(spark.read().format(format).load(path).count()).isEqualTo(101);
    }
}
