package io.stork.spark.it;

import io.stork.commit.StorkCommitProtocol;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** Stork's protocol with a task commit that fails when the campaign's plan says so. */
public class FaultyCommitProtocol extends StorkCommitProtocol {

    public FaultyCommitProtocol(String jobId, String outputPath, boolean dynamicPartitionOverwrite) {
        super(jobId, outputPath, dynamicPartitionOverwrite);
    }

    @Override
    public TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
        if (FaultPlan.current() == FaultPlan.Fault.FAIL_AFTER_WRITE_BEFORE_COMMIT) {
            throw new IllegalStateException("campaign fault: task fails after writing, before its commit");
        }
        return super.commitTask(taskContext);
    }
}
