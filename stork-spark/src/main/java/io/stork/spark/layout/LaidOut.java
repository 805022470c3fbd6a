package io.stork.spark.layout;

import io.stork.layout.model.PartitionerModel;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A DataFrame laid out by a model: {@code rows} has one Spark partition per bucket of {@code model}
 * (partition i holds exactly the rows the model sends to bucket i), so writing it produces one object per
 * non-empty bucket.
 */
public record LaidOut(Dataset<Row> rows, PartitionerModel model) {

    /** Saves the model beside the dataset at {@code datasetPath} ({@link StorkLayouts#save}); one PUT. */
    public Path saveModel(String datasetPath) throws IOException {
        return StorkLayouts.save(rows.sparkSession(), datasetPath, model);
    }
}
