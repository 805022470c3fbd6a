package io.stork.spark.layout;

import io.stork.layout.grid.GridModel;
import io.stork.layout.model.PartitionerModel;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A DataFrame laid out by a model: {@code rows} has one Spark partition per bucket of {@code model}
 * (partition i holds exactly the rows the model sends to bucket i), so writing it produces one object per
 * non-empty bucket.
 */
public record LaidOut(Dataset<Row> rows, PartitionerModel model) {

    /** At most this many {@code geo} boxes per part for a grid: the manifest carries them for every part. */
    static final int MAX_GEO_BOXES = 64;

    /** Saves the model beside the dataset at {@code datasetPath} ({@link StorkLayouts#save}); one PUT. */
    public Path saveModel(String datasetPath) throws IOException {
        return StorkLayouts.save(rows.sparkSession(), datasetPath, model);
    }

    /**
     * Write options that make each part's statistics fit the layout: for a grid, a {@code geo} index with
     * room for one box per cell a bucket holds (up to {@value #MAX_GEO_BOXES}), since a bucket's run of cells
     * along the Hilbert curve is a patch whose single bounding box can be much larger than its cells; none
     * for a k-d tree, whose buckets are boxes that min/max already describe. Skipping options given to a
     * write replace the dataset's earlier ones: merge them with those the dataset keeps.
     */
    public Map<String, String> writeOptions() {
        if (model instanceof GridModel grid) {
            long cells = (long) grid.rows() * grid.cols();
            long perBucket = (cells + grid.buckets() - 1) / grid.buckets();
            int boxes = (int) Math.max(8, Math.min(MAX_GEO_BOXES, perBucket));
            return Map.of("stork.skipping.geo", grid.lat().name() + ":" + grid.lon().name(),
                    "stork.skipping.geo.boxes", Integer.toString(boxes));
        }
        return Map.of();
    }
}
