package io.stork.commit;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;

/**
 * Binds {@link StorkOutputCommitter} to {@code stork://} output for Hadoop's new-API output formats:
 * {@code mapreduce.outputcommitter.factory.scheme.stork=io.stork.commit.StorkCommitterFactory}.
 */
public class StorkCommitterFactory extends PathOutputCommitterFactory {

    @Override
    public PathOutputCommitter createOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
        return new StorkOutputCommitter(outputPath, context);
    }
}
