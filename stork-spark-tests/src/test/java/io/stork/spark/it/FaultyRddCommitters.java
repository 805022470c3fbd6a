package io.stork.spark.it;

import io.stork.commit.StorkMapredCommitter;
import io.stork.commit.StorkOutputCommitter;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitterFactory;

/**
 * Stork's committers for RDD writes with the campaign's one fault that rows cannot act out: a task attempt
 * whose files are written and closed, and whose task commit then fails (see {@link FaultPlan}).
 */
final class FaultyRddCommitters {

    private FaultyRddCommitters() {
    }

    private static void maybeFail() throws IOException {
        if (FaultPlan.current() == FaultPlan.Fault.FAIL_AFTER_WRITE_BEFORE_COMMIT) {
            throw new IOException("campaign fault: task commit fails after the write");
        }
    }

    /** The old API's ({@code mapred.output.committer.class}). */
    public static final class Mapred extends StorkMapredCommitter {
        @Override
        public void commitTask(org.apache.hadoop.mapred.TaskAttemptContext context) throws IOException {
            maybeFail();
            super.commitTask(context);
        }
    }

    /** The new API's ({@code mapreduce.outputcommitter.factory.scheme.stork}). */
    public static final class Factory extends PathOutputCommitterFactory {
        @Override
        public PathOutputCommitter createOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
            return new StorkOutputCommitter(outputPath, context) {
                @Override
                public void commitTask(TaskAttemptContext task) throws IOException {
                    maybeFail();
                    super.commitTask(task);
                }
            };
        }
    }
}
