package io.stork.spark.it;

import static io.stork.spark.it.SparkOnLocalStore.countedAtStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.spark.DyingFirstAttemptProtocol;
import io.stork.store.CallType;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A successful job leaves no stray it could know of: an attempt that wrote its part and died without
 * cleaning up (as with its executor) has its part removed by the job commit, which then makes one LIST and
 * one bulk DELETE more; a job where no attempt was lost makes neither (counted at the store, both APIs).
 */
class LostAttemptsStoreTest {

    private static final String S3_BUCKET = "it-lost-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-lost-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.withStork("stork-lost-attempts", S3_BUCKET, SWIFT_BUCKET)
                .master("local[2,2]").getOrCreate(); // a failed attempt is retried once
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
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

    /** Every object under the dataset, as a direct listing of the store shows it (any reader of the bucket). */
    private static List<String> objects(StorkFileSystem fs, String bucket, String dataset) throws Exception {
        String prefix = new Path(dataset).toUri().getPath().substring(1) + "/";
        List<String> names = new ArrayList<>();
        try (var it = fs.store().list(ListRequest.of(bucket, prefix))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                names.add(entry.name().substring(prefix.length()));
            }
        }
        return names;
    }

    private static Map<CallType, Long> write(StorkFileSystem fs, String path, String protocol) throws Exception {
        spark.conf().set("spark.sql.sources.commitProtocolClass", protocol);
        try {
            Map<CallType, Long> calls = new EnumMap<>(countedAtStore(fs, () -> spark.range(0, 100, 1, 2)
                    .selectExpr("CAST(id AS STRING) AS value").write().text(path)));
            calls.remove(CallType.AUTH);
            return calls;
        } finally {
            spark.conf().unset("spark.sql.sources.commitProtocolClass");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void theJobCommitRemovesTheLostAttemptsPartWithOneListAndOneBulkDeleteAndOnlyThen(String api) throws Exception {
        StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket(api));
        String clean = "stork://" + bucket(api) + "/clean-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(write(fs, clean, "io.stork.commit.StorkCommitProtocol")).as("no attempt lost: nothing added")
                .isEqualTo(Map.of(CallType.LIST, 1L, CallType.PUT, 3L));

        String lost = "stork://" + bucket(api) + "/lost-" + UUID.randomUUID().toString().substring(0, 8);
        Map<CallType, Long> calls = write(fs, lost, DyingFirstAttemptProtocol.class.getName());
        assertThat(calls).as("existence check, 3 parts (one of the dead attempt), the manifest; then one LIST and "
                + "one bulk DELETE for the dead attempt's part")
                .isEqualTo(Map.of(CallType.LIST, 2L, CallType.PUT, 4L, CallType.BULK_DELETE, 1L));

        Manifest manifest;
        try (InputStream in = fs.open(new Path(lost, PartNames.MANIFEST))) {
            manifest = ManifestCodec.read(in, lost);
        }
        List<String> named = new ArrayList<>(manifest.parts().stream().map(ManifestPart::path).toList());
        named.add(PartNames.MANIFEST);
        assertThat(objects(fs, bucket(api), lost)).as("a direct listing shows what the manifest names, no more")
                .containsExactlyInAnyOrderElementsOf(named);
        assertThat(manifest.parts()).hasSize(2);
        assertThat(spark.read().text(lost).count()).isEqualTo(100);
    }
}
