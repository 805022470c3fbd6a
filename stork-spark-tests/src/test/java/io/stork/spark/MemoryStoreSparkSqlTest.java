package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreStatistics;
import io.stork.store.memory.MemoryStores;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark SQL in this JVM (local mode) through {@code stork://} over the in-memory store, with Stork's one
 * setting: the commit protocol, the manifest and reads through it run with no server. CommitProtocolStoreTest
 * proves the same costs at the real store's access log; here the memory store counts the driver's and the
 * tasks' calls in one place, as that log does.
 */
class MemoryStoreSparkSqlTest {

    private static final String BUCKET = "unit-sql";
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        // Queries' history written when the session stops, not inside a counted window.
        spark = MemorySpark.session("stork-memory", Map.of("spark.stork.layout.history.flushInterval", "1h"));
    }

    @AfterAll
    static void stopSpark() {
        MemorySpark.stop(spark);
    }

    private static Map<CallType, Long> calls(Runnable action) {
        StoreStatistics store = MemoryStores.shared(BUCKET).statistics();
        StatisticsSnapshot before = store.snapshot();
        action.run();
        return store.snapshot().minus(before).calls();
    }

    private static FileSystem fileSystem() throws IOException {
        return new Path("stork://" + BUCKET + "/").getFileSystem(spark.sparkContext().hadoopConfiguration());
    }

    private static Manifest manifest(String dataset) throws IOException {
        try (InputStream in = fileSystem().open(new Path(dataset, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    private static List<String> lines(Dataset<Row> rows) {
        return rows.collectAsList().stream().map(r -> r.getString(0)).sorted().toList();
    }

    @Test
    void aOneTaskWriteIsThreeCallsAndReadsBackThroughItsManifest() throws IOException {
        String path = "stork://" + BUCKET + "/one";
        Dataset<Row> one = spark.range(1).selectExpr("CAST(id AS STRING) AS value").coalesce(1);

        assertThat(calls(() -> one.write().text(path))).as("existence check, the part, the manifest")
                .isEqualTo(Map.of(CallType.LIST, 1L, CallType.PUT, 2L));
        assertThat(manifest(path).parts()).singleElement().satisfies(part -> {
            assertThat(PartNames.isAttemptNamed(part.path())).as(part.path()).isTrue();
            assertThat(part.length()).isEqualTo(2);
        });

        @SuppressWarnings("unchecked")
        List<String>[] read = new List[1];
        assertThat(calls(() -> read[0] = lines(spark.read().text(path)))).as("the manifest, then the part")
                .isEqualTo(Map.of(CallType.GET, 2L));
        assertThat(read[0]).containsExactly("0");
    }

    @Test
    void aFourTaskWriteNamesEachPartAndListsOnlyWhatItsManifestNames() throws IOException {
        String path = "stork://" + BUCKET + "/four";
        Dataset<Row> rows = spark.range(0, 40, 1, 4).selectExpr("CAST(id AS STRING) AS value");

        assertThat(calls(() -> rows.write().text(path))).isEqualTo(Map.of(CallType.LIST, 1L, CallType.PUT, 5L));
        Manifest manifest = manifest(path);
        assertThat(manifest.parts()).hasSize(4).allSatisfy(part -> assertThat(PartNames.isAttemptNamed(part.path()))
                .as(part.path()).isTrue());
        assertThat(Arrays.stream(fileSystem().listStatus(new Path(path))).map(s -> s.getPath().getName()).sorted())
                .containsExactlyElementsOf(manifest.parts().stream().map(ManifestPart::path).sorted().toList());
        assertThat(lines(spark.read().text(path))).containsExactlyInAnyOrderElementsOf(lines(rows));
    }
}
