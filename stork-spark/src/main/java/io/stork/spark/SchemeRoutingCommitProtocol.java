package io.stork.spark;

import io.stork.commit.StorkCommitProtocol;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.internal.io.FileNameSpec;
import org.apache.spark.sql.internal.SQLConf;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * The session's commit protocol when Stork is enabled: {@code stork://} output commits with
 * {@link StorkCommitProtocol}; any other output with the protocol the session had before Stork took the
 * setting over ({@link CommitProtocolRouting#OTHER_PROTOCOL_KEY}: Spark's default, or S3A's
 * {@code PathOutputCommitProtocol} that Spark 4 sets when spark-hadoop-cloud is on the class path). So a
 * session writing {@code stork://} and {@code s3a://} keeps each store's own committer.
 *
 * <p>Spark builds a protocol per write job on the driver from (job id, output path, dynamic overwrite), so
 * the choice is made once, at construction; the chosen protocol travels to the tasks inside this one.
 */
public class SchemeRoutingCommitProtocol extends FileCommitProtocol implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    private final FileCommitProtocol delegate;

    public SchemeRoutingCommitProtocol(String jobId, String outputPath, boolean dynamicPartitionOverwrite) {
        if ("stork".equals(new Path(outputPath).toUri().getScheme())) {
            delegate = new StorkCommitProtocol(jobId, outputPath, dynamicPartitionOverwrite);
        } else {
            String other = SQLConf.get().getConfString(CommitProtocolRouting.OTHER_PROTOCOL_KEY,
                    CommitProtocolRouting.SPARK_DEFAULT_PROTOCOL);
            delegate = FileCommitProtocol.instantiate(other, jobId, outputPath, dynamicPartitionOverwrite);
        }
    }

    public SchemeRoutingCommitProtocol(String jobId, String outputPath) {
        this(jobId, outputPath, false);
    }

    /** The protocol this job commits with: for logs, and for tests that check what ran. */
    public FileCommitProtocol delegate() {
        return delegate;
    }

    @Override
    public void setupJob(JobContext jobContext) {
        delegate.setupJob(jobContext);
    }

    @Override
    public void commitJob(JobContext jobContext, Seq<FileCommitProtocol.TaskCommitMessage> taskCommits) {
        delegate.commitJob(jobContext, taskCommits);
    }

    @Override
    public void abortJob(JobContext jobContext) {
        delegate.abortJob(jobContext);
    }

    @Override
    public void setupTask(TaskAttemptContext taskContext) {
        delegate.setupTask(taskContext);
    }

    @Override
    @SuppressWarnings("deprecation")
    public String newTaskTempFile(TaskAttemptContext taskContext, Option<String> dir, String ext) {
        return delegate.newTaskTempFile(taskContext, dir, ext);
    }

    @Override
    public String newTaskTempFile(TaskAttemptContext taskContext, Option<String> dir, FileNameSpec spec) {
        return delegate.newTaskTempFile(taskContext, dir, spec);
    }

    @Override
    @SuppressWarnings("deprecation")
    public String newTaskTempFileAbsPath(TaskAttemptContext taskContext, String absoluteDir, String ext) {
        return delegate.newTaskTempFileAbsPath(taskContext, absoluteDir, ext);
    }

    @Override
    public String newTaskTempFileAbsPath(TaskAttemptContext taskContext, String absoluteDir, FileNameSpec spec) {
        return delegate.newTaskTempFileAbsPath(taskContext, absoluteDir, spec);
    }

    @Override
    public FileCommitProtocol.TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
        return delegate.commitTask(taskContext);
    }

    @Override
    public void abortTask(TaskAttemptContext taskContext) {
        delegate.abortTask(taskContext);
    }

    @Override
    public boolean deleteWithJob(FileSystem fs, Path path, boolean recursive) {
        return delegate.deleteWithJob(fs, path, recursive);
    }

    @Override
    public void onTaskCommit(FileCommitProtocol.TaskCommitMessage taskCommit) {
        delegate.onTaskCommit(taskCommit);
    }

    @Override
    public String toString() {
        return "SchemeRoutingCommitProtocol(" + delegate.getClass().getName() + ")";
    }
}
