package io.stork.spark.layout;

import io.stork.layout.json.ModelJson;
import io.stork.layout.model.PartitionerModel;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Laying out a DataFrame by a layout model at write time (docs/layouts.md), like {@code partitionBy} but
 * into the model's buckets:
 * <pre>{@code
 * LaidOut out = StorkLayouts.kdTree(df, List.of("lat", "lon"), 16);   // sample, build, route
 * out.rows().write().parquet("stork://b/t");                            // one object per non-empty bucket
 * out.saveModel("stork://b/t");                                         // stork://b/t/_stork/layout/model.json
 * // a later batch, into the same buckets:
 * StorkLayouts.layOut(next, StorkLayouts.load(spark, "stork://b/t")).write().mode("append").parquet("stork://b/t");
 * }</pre>
 * Options (sample size, history, sorting within buckets): {@link LayoutSpec}.
 */
public final class StorkLayouts {

    /** Where a dataset keeps its layout model, relative to its root (Stork's internal directory). */
    public static final String MODEL_LOCATION = "_stork/layout/model.json";

    private StorkLayouts() {
    }

    /** A k-d tree over {@code columns} built from a sample of {@code df}, and {@code df} laid out by it. */
    public static LaidOut kdTree(Dataset<Row> df, List<String> columns, int buckets) {
        return LayoutSpec.kdTree(columns, buckets).layOut(df);
    }

    /** A latitude/longitude grid (cells of 10^-precision degree) balanced by a sample of {@code df}. */
    public static LaidOut grid(Dataset<Row> df, String latColumn, String lonColumn, int precision, int buckets) {
        return LayoutSpec.grid(latColumn, lonColumn, precision, buckets).layOut(df);
    }

    /** {@code df} laid out by an existing model, rows sorted by key within each bucket. */
    public static Dataset<Row> layOut(Dataset<Row> df, PartitionerModel model) {
        return layOut(df, model, true);
    }

    /** {@code df} with one partition per bucket of {@code model}, optionally sorted by key within each. */
    public static Dataset<Row> layOut(Dataset<Row> df, PartitionerModel model, boolean sortWithinBuckets) {
        if (model == null) {
            throw new IllegalArgumentException("no layout model given");
        }
        return BucketRouting.route(df, model, sortWithinBuckets);
    }

    /**
     * The query history kept beside the dataset at {@code datasetPath} (captured from its queries, docs/layouts.md
     * "Query history"), or an empty one (one GET either way).
     */
    public static io.stork.layout.history.QueryHistory history(SparkSession spark, String datasetPath)
            throws IOException {
        FileSystem fs = new Path(datasetPath).getFileSystem(spark.sparkContext().hadoopConfiguration());
        return io.stork.spark.layout.history.HistoryFile.read(fs.makeQualified(new Path(datasetPath)),
                spark.sparkContext().hadoopConfiguration()).orElse(io.stork.layout.history.QueryHistory.empty());
    }

    /**
     * Rewrites the dataset's current generation laid out by {@code spec} as one new generation (appends
     * committed meanwhile kept; see {@link Relayout} for the options).
     */
    public static Relayout.Result relayout(SparkSession spark, String datasetPath, LayoutSpec spec) throws IOException {
        return Relayout.of(spark, datasetPath, spec).run();
    }

    /** The path of the model of the dataset at {@code datasetPath}. */
    public static Path modelPath(String datasetPath) {
        return new Path(datasetPath, MODEL_LOCATION);
    }

    /** Saves {@code model} as {@code <dataset>/_stork/layout/model.json} (replacing any), one PUT on Stork. */
    public static Path save(SparkSession spark, String datasetPath, PartitionerModel model) throws IOException {
        return InternalFile.write(modelPath(datasetPath), spark.sparkContext().hadoopConfiguration(),
                ModelJson.write(model).getBytes(StandardCharsets.UTF_8));
    }

    /** The model saved beside the dataset at {@code datasetPath}; FileNotFoundException if it has none. */
    public static PartitionerModel load(SparkSession spark, String datasetPath) throws IOException {
        return find(spark, datasetPath).orElseThrow(() -> new FileNotFoundException("no layout model at "
                + modelPath(datasetPath) + " (save one with StorkLayouts.save)"));
    }

    /** The model saved beside the dataset, or empty (one GET either way). */
    public static Optional<PartitionerModel> find(SparkSession spark, String datasetPath) throws IOException {
        Path location = modelPath(datasetPath);
        Optional<byte[]> json = InternalFile.read(location, spark.sparkContext().hadoopConfiguration());
        try {
            return json.map(bytes -> ModelJson.read(new String(bytes, StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
            throw new IOException("not a layout model: " + location + ": " + e.getMessage(), e);
        }
    }
}
