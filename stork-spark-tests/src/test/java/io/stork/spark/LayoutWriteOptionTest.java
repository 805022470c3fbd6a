package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.layout.gridpocket.GeoQueries;
import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.layout.model.PartitionerModel;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.spark.layout.StorkLayouts;
import io.stork.spark.skipping.DataSkipping;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A layout asked for as a write option ({@code .option("stork.layout", "kdtree")}), over the memory store:
 * one part per bucket in one write, the model kept beside the dataset after the commit, a later batch laid
 * out by the saved model ({@code stork.layout=saved}), buckets from a target object size, bad options named.
 */
class LayoutWriteOptionTest {

    private static final String BUCKET = "unit-layout-option";
    private static final long START = 1_767_225_600L;
    private static final GridPocketGenerator DATA = new GridPocketGenerator(42, 400, START, 8);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        spark = MemorySpark.session("stork-layout-option", Map.of("spark.stork.layout.history.enabled", "false"));
    }

    @AfterAll
    static void stopSpark() {
        MemorySpark.stop(spark);
    }

    private static Dataset<Row> frame(GridPocketGenerator data, int partitions) {
        return MemorySpark.readings(spark, data, partitions);
    }

    private static String path(String name) {
        return "stork://" + BUCKET + "/" + name;
    }

    private static Manifest manifest(String dataset) throws Exception {
        return MemorySpark.manifest(spark, dataset);
    }

    private static List<String> sorted(List<Row> rows) {
        return MemorySpark.sorted(rows);
    }

    @Test
    void aKdTreeWriteOptionWritesOnePartPerBucket_keepsItsModel_andALaterBatchUsesTheSavedModel() throws Exception {
        String dataset = path("events");
        frame(DATA, 3).write().option("stork.layout", "kdtree").option("stork.layout.columns", "lat,lon")
                .option("stork.layout.buckets", "8").parquet(dataset); // default mode: the path was new
        Manifest first = manifest(dataset);
        assertThat(first.parts()).hasSize(8);
        PartitionerModel model = StorkLayouts.load(spark, dataset);
        assertThat(model).isInstanceOf(KdTreeModel.class);
        assertThat(model.buckets()).isEqualTo(8);
        assertThat(first.properties()).as("the layout's options are not dataset properties")
                .doesNotContainKey("stork.layout");

        GridPocketGenerator later = new GridPocketGenerator(5, 120, START + 8 * 900, 4);
        frame(later, 2).write().mode("append").option("stork.layout", "saved").parquet(dataset);
        Manifest second = manifest(dataset);
        List<ManifestPart> added = second.parts().stream().filter(p -> p.addedIn() == second.generation()).toList();
        assertThat(added).hasSizeLessThanOrEqualTo(8).isNotEmpty();
        assertThat(StorkLayouts.load(spark, dataset)).as("the saved model, kept").isEqualTo(model);
        // Each appended part holds rows of one bucket of the saved model only.
        for (ManifestPart part : added) {
            Set<Integer> buckets = spark.read().parquet(dataset + "/" + part.path()).select("lat", "lon")
                    .collectAsList().stream().map(r -> model.bucketOf(new Object[] {r.getDouble(0), r.getDouble(1)}))
                    .collect(Collectors.toSet());
            assertThat(buckets).as(part.path()).hasSize(1);
        }
        List<Row> all = new java.util.ArrayList<>(frame(DATA, 1).collectAsList());
        all.addAll(frame(later, 1).collectAsList());
        assertThat(sorted(spark.read().parquet(dataset).collectAsList())).isEqualTo(sorted(all));

        long read = 0;
        List<GeoQueries.GeoQuery> queries = new GeoQueries(DATA, 2).measureSet(10, 5, 4);
        for (GeoQueries.GeoQuery q : queries) {
            Dataset<Row> d = spark.read().parquet(dataset).where(functions.col("lat").between(q.minLat(), q.maxLat())
                    .and(functions.col("lon").between(q.minLon(), q.maxLon())));
            d.collectAsList();
            read += DataSkipping.reports(d).get(0).objectsRead();
        }
        assertThat((double) read / queries.size()).as("parts read per 5x5 km query, of %d", second.parts().size())
                .isLessThan(second.parts().size() / 3.0);
    }

    @Test
    void aTargetObjectSizeChoosesTheBucketCount_andAGridKeepsGeoBoxes() throws Exception {
        String plain = path("plain");
        frame(DATA, 4).write().parquet(plain);
        long bytes = manifest(plain).parts().stream().mapToLong(ManifestPart::length).sum();
        String dataset = path("grid");
        spark.read().parquet(plain).write().option("stork.layout", "grid").option("stork.layout.columns", "lat,lon")
                .option("stork.layout.precision", "1").option("stork.layout.targetObjectSize", Long.toString(
                        (bytes + 3) / 4)).parquet(dataset);
        Manifest m = manifest(dataset);
        assertThat(StorkLayouts.load(spark, dataset).buckets()).as("ceil(input bytes / target)").isEqualTo(4);
        assertThat(m.parts()).hasSizeBetween(1, 4);
        assertThat(m.properties()).containsEntry("stork.skipping.geo", "lat:lon");
        assertThat(spark.read().parquet(dataset).count()).isEqualTo(DATA.readingList().size());
    }

    @Test
    void badLayoutOptionsAreNamedOnOneLine_andNothingIsWritten() {
        String dataset = path("bad");
        assertThatThrownBy(() -> frame(DATA, 1).write().option("stork.layout", "zorder").parquet(dataset))
                .hasMessageContaining("stork.layout must be kdtree, grid or saved, not 'zorder'");
        assertThatThrownBy(() -> frame(DATA, 1).write().option("stork.layout", "kdtree")
                .option("stork.layout.buckets", "4").parquet(dataset))
                .hasMessageContaining("a layout write needs stork.layout.columns");
        assertThatThrownBy(() -> frame(DATA, 1).write().option("stork.layout", "saved").parquet(dataset))
                .hasMessageContaining("no layout model is saved with");
        assertThatThrownBy(() -> frame(DATA, 1).write().option("stork.layout", "kdtree")
                .option("stork.layout.columns", "lat,nowhere").option("stork.layout.buckets", "4").parquet(dataset))
                .hasMessageContaining("nowhere");
    }
}
