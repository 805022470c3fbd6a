package io.stork.manifest;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of a dataset's history, as the manifest keeps it for the generations within retention.
 *
 * @param records the records of all the generation's parts, or null when some part has no count
 * @param added   parts the commit added
 * @param removed parts the commit dropped from the dataset
 */
public record GenerationInfo(long generation, Manifest.Operation operation, String jobId, Instant committedAt,
                             int partCount, long bytes, Long records, int added, int removed) {

    public GenerationInfo {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(committedAt, "committedAt");
    }
}
