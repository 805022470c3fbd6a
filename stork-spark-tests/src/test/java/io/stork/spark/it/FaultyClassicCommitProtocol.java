package io.stork.spark.it;

import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol;

/**
 * Spark's default commit protocol (Hadoop's classic FileOutputCommitter, whose temporary tree the Stork
 * file system emulates) with a task commit that fails when the campaign's plan says so.
 */
public class FaultyClassicCommitProtocol extends SQLHadoopMapReduceCommitProtocol {

    public FaultyClassicCommitProtocol(String jobId, String path, boolean dynamicPartitionOverwrite) {
        super(jobId, path, dynamicPartitionOverwrite);
    }

    @Override
    public TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
        if (FaultPlan.current() == FaultPlan.Fault.FAIL_AFTER_WRITE_BEFORE_COMMIT) {
            throw new IllegalStateException("campaign fault: task fails after writing, before its commit");
        }
        return super.commitTask(taskContext);
    }
}
