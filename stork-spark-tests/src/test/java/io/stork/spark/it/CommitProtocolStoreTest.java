package io.stork.spark.it;

import static io.stork.spark.it.SparkOnLocalStore.countedAtStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stork's commit protocol under Spark SQL against the real store, both APIs, calls counted at the
 * store's access log (and checked against the connector's own counters).
 */
class CommitProtocolStoreTest {

    private static final String S3_BUCKET = "it-commit-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-commit-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.start("stork-commit", true, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static String bucket(String api) {
        return api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
    }

    private static String newPath(String api, String name) {
        return "stork://" + bucket(api) + "/" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Manifest manifest(StorkFileSystem fs, String dataset) throws IOException {
        try (InputStream in = fs.open(new Path(dataset, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    private static long total(Map<CallType, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    private static List<String> lines(Dataset<Row> rows) {
        return rows.collectAsList().stream().map(r -> r.getString(0)).sorted().toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aOneTaskJobIsThreeCallsAndIsReadBackWithoutListOrHead(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "one");
        Dataset<Row> one = spark.range(1).selectExpr("CAST(id AS STRING) AS value").coalesce(1);

        Map<CallType, Long> write = countedAtStore(fs, () -> one.write().text(path));
        assertThat(write).as("existence check, the part, the manifest")
                .isEqualTo(Map.of(CallType.LIST, 1L, CallType.PUT, 2L));

        Manifest manifest = manifest(fs, path);
        assertThat(manifest.parts()).singleElement().satisfies(part -> {
            assertThat(PartNames.isAttemptNamed(part.path())).isTrue();
            assertThat(part.length()).isEqualTo(2);
            assertThat(part.etag()).isNotBlank();
        });

        @SuppressWarnings("unchecked")
        List<String>[] read = new List[1];
        Map<CallType, Long> readCalls = countedAtStore(fs, () -> read[0] = lines(spark.read().text(path)));
        assertThat(read[0]).containsExactly("0");
        assertThat(readCalls).as("the manifest, then the part").isEqualTo(Map.of(CallType.GET, 2L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void nPartsAreNPlusTwoCallsWithNoCopyNoDeleteAndStraysNeverShow(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "four");
        Dataset<Row> rows = spark.range(0, 40, 1, 4).selectExpr("CAST(id AS STRING) AS value");

        Map<CallType, Long> write = countedAtStore(fs, () -> rows.write().text(path));
        assertThat(write).isEqualTo(Map.of(CallType.LIST, 1L, CallType.PUT, 5L));
        assertThat(total(write)).isEqualTo(4 + 2);

        Manifest manifest = manifest(fs, path);
        assertThat(manifest.parts()).hasSize(4);
        // A speculative or failed attempt that was never cleaned up: an attempt part no manifest names.
        String key = new Path(path).toUri().getPath().substring(1);
        String stray = key + "/" + PartNames.partFileName(2, manifest.jobId(), 999, ".txt");
        fs.store().put(ObjectKey.of(bucket(api), stray), PutBody.of("stray\n".getBytes(StandardCharsets.UTF_8)),
                PutOptions.defaults());

        @SuppressWarnings("unchecked")
        List<String>[] read = new List[1];
        Map<CallType, Long> readCalls = countedAtStore(fs, () -> read[0] = lines(spark.read().text(path)));
        assertThat(read[0]).hasSize(40).doesNotContain("stray")
                .containsExactlyInAnyOrderElementsOf(lines(rows));
        assertThat(readCalls).isEqualTo(Map.of(CallType.GET, 1L + 4L));

        FileStatus[] listed = fs.listStatus(new Path(path));
        assertThat(Arrays.stream(listed).map(s -> s.getPath().getName()).sorted().toList())
                .isEqualTo(manifest.parts().stream().map(ManifestPart::path).sorted().toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void aFailedJobWritesNoManifestAndUncommittedPartsFailTheRead(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "failed");
        Dataset<String> failing = spark.range(0, 100, 1, 2).map((MapFunction<Long, String>) id -> {
            if (id == 70) {
                throw new IllegalStateException("task fails mid-write, on purpose");
            }
            return Long.toString(id);
        }, Encoders.STRING());
        assertThatThrownBy(() -> failing.write().text(path)).hasStackTraceContaining("on purpose");
        assertThat(fs.exists(new Path(path, PartNames.MANIFEST))).as("no manifest").isFalse();

        // Parts a crashed job left behind (its executor died before it could clean up).
        String key = new Path(path).toUri().getPath().substring(1);
        fs.store().put(ObjectKey.of(bucket(api), key + "/" + PartNames.partFileName(0, UUID.randomUUID().toString(), 0, ".txt")),
                PutBody.of("orphan\n".getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());
        assertThatThrownBy(() -> spark.read().text(path).collectAsList())
                .hasMessageContaining("incomplete dataset").hasMessageContaining("fs.stork.read.raw");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void appendOverwriteAndDynamicPartitionOverwriteSwitchGenerations(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String path = newPath(api, "sales");
        spark.range(0, 60, 1, 3).selectExpr("id", "id % 3 AS k").write().partitionBy("k").parquet(path);
        Manifest first = manifest(fs, path);
        assertThat(first.generation()).isEqualTo(1);
        assertThat(spark.read().parquet(path).count()).isEqualTo(60);

        spark.range(100, 110, 1, 1).selectExpr("id", "id % 3 AS k").write().mode(SaveMode.Append)
                .partitionBy("k").parquet(path);
        Manifest second = manifest(fs, path);
        assertThat(second.generation()).isEqualTo(2);
        assertThat(second.parts()).containsAll(first.parts());
        assertThat(spark.read().parquet(path).count()).isEqualTo(70);

        spark.range(1000, 1005, 1, 1).selectExpr("id", "1 AS k").write().mode(SaveMode.Overwrite)
                .option("partitionOverwriteMode", "dynamic").partitionBy("k").parquet(path);
        Manifest third = manifest(fs, path);
        assertThat(third.operation()).isEqualTo(Manifest.Operation.DYNAMIC_PARTITION_OVERWRITE);
        Dataset<Row> afterDynamic = spark.read().parquet(path);
        assertThat(afterDynamic.where("k = 1").count()).isEqualTo(5);
        assertThat(afterDynamic.where("k <> 1").count()).isEqualTo(70 - 20 - 4);

        Map<CallType, Long> overwrite = countedAtStore(fs, () -> spark.range(0, 3, 1, 1).selectExpr("id", "0 AS k")
                .write().mode(SaveMode.Overwrite).partitionBy("k").parquet(path));
        Manifest fourth = manifest(fs, path);
        assertThat(fourth.generation()).isEqualTo(4);
        assertThat(fourth.operation()).isEqualTo(Manifest.Operation.OVERWRITE);
        assertThat(fourth.parts()).hasSize(1);
        assertThat(spark.read().parquet(path).count()).isEqualTo(3);
        assertThat(overwrite).as("an overwrite copies nothing and deletes nothing: retention keeps the replaced parts")
                .doesNotContainKeys(CallType.COPY, CallType.DELETE, CallType.BULK_DELETE);
        assertThat(fs.listFiles(new Path(path), true).hasNext()).isTrue();
        int[] objects = {0};
        try (var it = fs.store().list(io.stork.store.ListRequest.of(bucket(api),
                new Path(path).toUri().getPath().substring(1) + "/"))) {
            while (it.hasNext()) {
                if (!it.next().name().contains("/_")) {
                    objects[0]++;
                }
            }
        }
        assertThat(fourth.removed()).as("every part of generations 1 to 3, kept for the retention period")
                .hasSize(13);
        assertThat(objects[0]).as("replaced parts stay in the store until vacuum")
                .isEqualTo(fourth.parts().size() + fourth.removed().size());
    }
}
