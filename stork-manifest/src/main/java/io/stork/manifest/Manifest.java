package io.stork.manifest;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The truth about a dataset: the parts its last committed job says it holds. Written once per job commit
 * as {@code <dataset>/_SUCCESS}; each commit writes the whole state (previous parts it keeps plus its own),
 * so a reader needs this one object and no listing. See docs/manifest-format.md.
 *
 * @param version     format version this manifest was written in
 * @param writer      the software that wrote it ("stork 0.1.0")
 * @param jobId       the job whose commit wrote it
 * @param generation  1 for a dataset's first commit, +1 for each commit after (append, overwrite)
 * @param operation   what the commit did: {@link Operation}
 * @param createdAt   when that job started
 * @param committedAt when it committed
 * @param parts       the committed parts, in the order written
 */
public record Manifest(int version, String writer, String jobId, long generation, Operation operation,
                       Instant createdAt, Instant committedAt, List<ManifestPart> parts) {

    /** The version this code writes. Readers accept this and earlier versions. */
    public static final int CURRENT_VERSION = 1;

    /** What a commit did to the dataset's previous state. */
    public enum Operation {
        /** A new dataset (nothing was there). */
        CREATE,
        /** Previous parts kept, new parts added. */
        APPEND,
        /** Previous parts replaced (all, or those under the directories the job replaced). */
        OVERWRITE,
        /** Previous parts kept except in the partitions the job wrote. */
        DYNAMIC_PARTITION_OVERWRITE;

        public String jsonName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        public static Operation fromJsonName(String name) {
            for (Operation op : values()) {
                if (op.jsonName().equals(name)) {
                    return op;
                }
            }
            throw new IllegalArgumentException("unknown operation '" + name + "'");
        }
    }

    public Manifest {
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(committedAt, "committedAt");
        parts = List.copyOf(parts);
        if (generation < 1) {
            throw new IllegalArgumentException("generation starts at 1, not " + generation);
        }
    }

    /** The total length of all parts. */
    public long totalLength() {
        long total = 0;
        for (ManifestPart part : parts) {
            total += part.length();
        }
        return total;
    }
}
