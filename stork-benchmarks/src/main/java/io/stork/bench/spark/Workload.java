package io.stork.bench.spark;

/**
 * One benchmark job. {@link #run} is what is timed and whose REST calls are counted; {@link #verify} reads
 * the output back afterwards, outside the measured window, so that a connector that loses or duplicates
 * data cannot look fast. Both return a summary that must be the same for every scenario.
 */
public interface Workload {

    String id();

    String label();

    String run(WorkloadContext context);

    default String verify(WorkloadContext context) {
        return "";
    }

    /** The workload whose output this one reads, if any (it must run before, in the same run). */
    default String requires() {
        return null;
    }
}
