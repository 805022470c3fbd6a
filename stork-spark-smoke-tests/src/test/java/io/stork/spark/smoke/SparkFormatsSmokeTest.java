package io.stork.spark.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.store.testing.LocalStore;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spark (local mode, its default commit protocol for now) writes and reads each format through the Stork
 * FileSystem, over each API, against the real local store, and gets the same rows back.
 */
class SparkFormatsSmokeTest {

    private static final String S3_BUCKET = "it-spark-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-spark-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        LocalStore local = LocalStore.shared();
        SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("stork-smoke")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2");
        for (String[] bucket : new String[][] {{S3_BUCKET, "s3"}, {SWIFT_BUCKET, "swift"}}) {
            String prefix = "spark.hadoop.fs.stork.bucket." + bucket[0] + ".";
            builder.config(prefix + "api", bucket[1])
                    .config(prefix + "endpoint", local.s3Endpoint().toString())
                    .config(prefix + "access.key", local.s3AccessKey())
                    .config(prefix + "secret.key", local.s3SecretKey())
                    .config(prefix + "swift.auth.url", local.swiftAuthUrl().toString())
                    .config(prefix + "swift.user", local.swiftUser())
                    .config(prefix + "swift.key", local.swiftKey());
        }
        spark = builder.getOrCreate();
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        for (String bucket : List.of(S3_BUCKET, SWIFT_BUCKET)) {
            FileSystem fs = new Path("stork://" + bucket + "/").getFileSystem(conf);
            ((io.stork.hadoop.StorkFileSystem) fs).store().createBucket(bucket);
        }
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static Dataset<Row> sample() {
        StructType schema = new StructType()
                .add("id", DataTypes.IntegerType)
                .add("name", DataTypes.StringType)
                .add("amount", DataTypes.DoubleType);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            rows.add(RowFactory.create(i, "name-" + i + (i % 7 == 0 ? " ü,\"quoted\"" : ""), i * 1.5));
        }
        return spark.createDataFrame(rows, schema).repartition(3);
    }

    @ParameterizedTest
    @CsvSource({"s3,parquet", "s3,orc", "s3,json", "s3,csv", "swift,parquet", "swift,orc", "swift,json", "swift,csv"})
    void writesAndReadsBackTheSameRows(String api, String format) {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        String path = "stork://" + bucket + "/tables/" + format;
        Dataset<Row> data = sample();
        var writer = data.write().mode(SaveMode.Overwrite).format(format);
        var reader = spark.read().format(format).schema(data.schema());
        if (format.equals("csv")) {
            writer = writer.option("header", "true");
            reader = reader.option("header", "true");
        }
        writer.save(path);
        Dataset<Row> back = reader.load(path);
        assertThat(back.count()).isEqualTo(500);
        assertThat(back.except(data).count()).isZero();
        assertThat(data.except(back).count()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"s3", "swift"})
    void writesAndReadsText(String api) {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        String path = "stork://" + bucket + "/tables/text";
        Dataset<Row> lines = sample().selectExpr("concat(id, ':', name) AS value");
        lines.write().mode(SaveMode.Overwrite).text(path);
        Dataset<Row> back = spark.read().text(path);
        assertThat(back.count()).isEqualTo(500);
        assertThat(back.except(lines).count()).isZero();
    }
}
