package io.stork.commit;

import io.stork.hadoop.StorkFileSystem;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileOutputCommitter;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.JobContext;
import org.apache.hadoop.mapred.TaskAttemptContext;
import org.apache.hadoop.mapred.TaskAttemptContextImpl;
import org.apache.hadoop.mapred.TaskAttemptID;

/**
 * Hadoop's old {@code mapred} API committer ({@code mapred.output.committer.class}, which
 * {@code StorkSparkExtensions} sets when it is unset): output on {@code stork://} commits with
 * {@link StorkOutputCommitter}, as the new API does (RDD {@code saveAsTextFile}, {@code saveAsHadoopFile});
 * any other output with Hadoop's {@code FileOutputCommitter}, exactly as without Stork.
 *
 * <p>It extends {@code FileOutputCommitter} because the old output formats ask a committer of that class
 * for the task's work path ({@code FileOutputFormat.getTaskOutputPath}); for {@code stork://} it answers
 * Stork's (Hadoop's classic attempt directory, whose files the file system writes straight to their final,
 * attempt-named keys).
 */
public class StorkMapredCommitter extends FileOutputCommitter {

    /** Driver side: one instance runs setupJob and commitJob, so the Stork committer keeps its state here. */
    private StorkOutputCommitter stork;

    private static boolean isStork(Path output, JobConf conf) throws IOException {
        return output != null && output.getFileSystem(conf) instanceof StorkFileSystem;
    }

    private StorkOutputCommitter stork(TaskAttemptContext context) throws IOException {
        if (stork == null) {
            stork = new StorkOutputCommitter(FileOutputFormat.getOutputPath(context.getJobConf()), context);
        }
        return stork;
    }

    /** A job-level call carries no attempt: the committer is bound to attempt 0 of task 0, as Spark does. */
    private StorkOutputCommitter stork(JobContext context) throws IOException {
        if (stork == null) {
            org.apache.hadoop.mapreduce.JobID job = context.getJobID();
            TaskAttemptID attempt = new TaskAttemptID(job.getJtIdentifier(), job.getId(), true, 0, 0);
            stork = stork(new TaskAttemptContextImpl(context.getJobConf(), attempt));
        }
        return stork;
    }

    private static boolean isStork(JobContext context) throws IOException {
        return isStork(FileOutputFormat.getOutputPath(context.getJobConf()), context.getJobConf());
    }

    private static boolean isStork(TaskAttemptContext context) throws IOException {
        return isStork(FileOutputFormat.getOutputPath(context.getJobConf()), context.getJobConf());
    }

    @Override
    public Path getWorkPath(TaskAttemptContext context, Path outputPath) throws IOException {
        return isStork(outputPath, context.getJobConf()) ? stork(context).getWorkPath()
                : super.getWorkPath(context, outputPath);
    }

    @Override
    public Path getTaskAttemptPath(TaskAttemptContext context) throws IOException {
        return isStork(context) ? stork(context).getWorkPath() : super.getTaskAttemptPath(context);
    }

    @Override
    public void setupJob(JobContext context) throws IOException {
        if (isStork(context)) {
            stork(context).setupJob(context);
        } else {
            super.setupJob(context);
        }
    }

    @Override
    public void commitJob(JobContext context) throws IOException {
        if (isStork(context)) {
            stork(context).commitJob(context);
        } else {
            super.commitJob(context);
        }
    }

    @Override
    @Deprecated
    public void cleanupJob(JobContext context) throws IOException {
        if (!isStork(context)) {
            super.cleanupJob(context);
        }
    }

    @Override
    public void abortJob(JobContext context, int runState) throws IOException {
        if (isStork(context)) {
            stork(context).abortJob(context, org.apache.hadoop.mapreduce.JobStatus.State.FAILED);
        } else {
            super.abortJob(context, runState);
        }
    }

    @Override
    public void setupTask(TaskAttemptContext context) throws IOException {
        if (isStork(context)) {
            stork(context).setupTask(context);
        } else {
            super.setupTask(context);
        }
    }

    @Override
    public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
        return isStork(context) ? stork(context).needsTaskCommit(context) : super.needsTaskCommit(context);
    }

    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
        if (isStork(context)) {
            stork(context).commitTask(context);
        } else {
            super.commitTask(context);
        }
    }

    @Override
    public void abortTask(TaskAttemptContext context) throws IOException {
        if (isStork(context)) {
            stork(context).abortTask(context);
        } else {
            super.abortTask(context);
        }
    }

    @Override
    public boolean isRecoverySupported() {
        return false;
    }
}
