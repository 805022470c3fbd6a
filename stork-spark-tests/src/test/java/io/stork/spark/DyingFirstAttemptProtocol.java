package io.stork.spark;

import io.stork.commit.StorkCommitProtocol;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.TaskContext;

/**
 * Stork's commit protocol where the first attempt of task 0 dies after its part is in the store, before
 * its task commit, and cannot clean up after itself, as when its executor's JVM is gone. Its retry
 * commits; the part of the dead attempt is a stray only the job commit can know of.
 */
public class DyingFirstAttemptProtocol extends StorkCommitProtocol {

    private static final long serialVersionUID = 1L;

    public DyingFirstAttemptProtocol(String jobId, String outputPath, boolean dynamicPartitionOverwrite) {
        super(jobId, outputPath, dynamicPartitionOverwrite);
    }

    private static boolean dying() {
        TaskContext task = TaskContext.get();
        return task != null && task.partitionId() == 0 && task.attemptNumber() == 0;
    }

    @Override
    public TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
        if (dying()) {
            throw new IllegalStateException("test: the first attempt of task 0 dies after writing its part");
        }
        return super.commitTask(taskContext);
    }

    @Override
    public void abortTask(TaskAttemptContext taskContext) {
        if (!dying()) {
            super.abortTask(taskContext); // a dead executor deletes nothing
        }
    }
}
