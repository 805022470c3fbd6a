package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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
 * Spark (local mode) writes each format through the Stork FileSystem and commit protocol, over each API,
 * against the real local store, and reads the same rows back.
 */
class SparkFormatsSmokeIT {

    private static final String S3_BUCKET = "it-spark-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-spark-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        // Stork's commit protocol: every format below is written rename-free and read through its manifest.
        spark = SparkOnLocalStore.start("stork-smoke", true, S3_BUCKET, SWIFT_BUCKET);
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
