package io.stork.spark;

import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.PartNames;
import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreStatistics;
import io.stork.store.memory.MemoryStores;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * What the unit lane's Spark tests over the memory store share: a local session with Stork's extension,
 * GridPocket readings as a DataFrame, a dataset's manifest, the store's calls around an action.
 */
final class MemorySpark {

    /** The columns of {@link io.stork.layout.gridpocket.Reading#toRow()}. */
    static final StructType READINGS = StructType.fromDDL("date BIGINT, `index` DOUBLE, sumHC DOUBLE, "
            + "sumHP DOUBLE, type STRING, vid BIGINT, size BIGINT, temp DOUBLE, city STRING, region BIGINT, "
            + "lat DOUBLE, lon DOUBLE");

    private MemorySpark() {
    }

    /** local[2], no UI, 2 shuffle partitions, Stork's extension over the memory store, then {@code conf}. */
    static SparkSession session(String name, Map<String, String> conf) {
        SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName(name)
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                .config("spark.hadoop.fs.stork.api", "memory");
        conf.forEach(builder::config);
        return builder.getOrCreate();
    }

    static void stop(SparkSession spark) {
        if (spark != null) {
            spark.stop();
        }
        MemoryStores.wipe();
    }

    /** The generator's readings in arrival order (time-major), in {@code partitions} contiguous slices. */
    static Dataset<Row> readings(SparkSession spark, GridPocketGenerator data, int partitions) {
        List<Row> rows = data.readingList().stream().map(r -> RowFactory.create(r.toRow())).toList();
        return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows,
                partitions), READINGS);
    }

    static Manifest manifest(SparkSession spark, String dataset) throws IOException {
        Path root = new Path(dataset);
        try (InputStream in = root.getFileSystem(spark.sparkContext().hadoopConfiguration())
                .open(new Path(root, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    static List<String> sorted(List<Row> rows) {
        return rows.stream().map(Row::toString).sorted().toList();
    }

    interface Action {
        void run() throws Exception;
    }

    /** The calls the bucket's clients made during {@code action}, as the memory store counted them. */
    static Map<CallType, Long> calls(String bucket, Action action) throws Exception {
        StoreStatistics store = MemoryStores.shared(bucket).statistics();
        StatisticsSnapshot before = store.snapshot();
        action.run();
        return store.snapshot().minus(before).calls();
    }
}
