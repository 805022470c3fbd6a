package io.stork.manifest;

import java.io.Serializable;
import java.util.Objects;

/**
 * One committed part of a dataset, as the manifest names it.
 *
 * @param path       the part's path relative to the dataset root, '/'-separated (partition directories
 *                   included: {@code year=2024/part-00000-…})
 * @param length     its length in bytes
 * @param etag       the store's entity tag from the write, or null where the file system has none
 * @param jobId      the job that wrote it
 * @param task       the task (Spark partition) that wrote it
 * @param attempt    the task attempt whose output was committed
 * @param modifiedAt when the part was written, epoch milliseconds
 * @param records    the record count, or null when the writer did not report one
 * @param statsJson  statistics gathered while writing (a JSON object, opaque to this format's version 1;
 *                   data skipping defines its content), or null
 * @param addedIn    the generation whose commit added the part to the dataset; 0 while it is not committed
 *                   (a task's report) or unknown (a manifest written before generations were recorded)
 * @param tail       bytes at the end of the object a reader needs first, as the writer saw them (a Parquet
 *                   footer with its length and magic), so that one GET fetches exactly those; 0 unknown
 * @param segment    the segment that keeps this part (its statistics are then the segment block's row, and
 *                   {@code statsJson} is null), or null for a part the manifest lists itself
 */
public record ManifestPart(String path, long length, String etag, String jobId, int task, long attempt,
                           long modifiedAt, Long records, String statsJson, long addedIn, int tail,
                           io.stork.manifest.segment.SegmentRef segment)
        implements Serializable {

    public ManifestPart(String path, long length, String etag, String jobId, int task, long attempt,
                        long modifiedAt, Long records, String statsJson, long addedIn, int tail) {
        this(path, length, etag, jobId, task, attempt, modifiedAt, records, statsJson, addedIn, tail, null);
    }

    public ManifestPart(String path, long length, String etag, String jobId, int task, long attempt,
                        long modifiedAt, Long records, String statsJson, long addedIn) {
        this(path, length, etag, jobId, task, attempt, modifiedAt, records, statsJson, addedIn, 0);
    }

    /** A part not yet committed to any generation. */
    public ManifestPart(String path, long length, String etag, String jobId, int task, long attempt,
                        long modifiedAt, Long records, String statsJson) {
        this(path, length, etag, jobId, task, attempt, modifiedAt, records, statsJson, 0);
    }

    public ManifestPart {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(jobId, "jobId");
        if (path.isEmpty() || path.startsWith("/") || path.endsWith("/")) {
            throw new IllegalArgumentException("a part path is relative and names a file: '" + path + "'");
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative length for part " + path);
        }
        if (tail < 0 || tail > length) {
            tail = 0; // a hint only: one that cannot be right is dropped
        }
    }

    public ManifestPart withAddedIn(long generation) {
        return generation == addedIn ? this
                : new ManifestPart(path, length, etag, jobId, task, attempt, modifiedAt, records, statsJson(), generation,
                        tail);
    }

    public ManifestPart withRecords(Long count) {
        return new ManifestPart(path, length, etag, jobId, task, attempt, modifiedAt, count, statsJson(), addedIn, tail);
    }

    /** This part with statistics gathered while writing it (a JSON object), or none (null). */
    public ManifestPart withStats(String json) {
        return new ManifestPart(path, length, etag, jobId, task, attempt, modifiedAt, records, json, addedIn, tail);
    }

    /** This part with the tail a reader needs first ({@link #tail()}). */
    public ManifestPart withTail(int bytes) {
        return new ManifestPart(path, length, etag, jobId, task, attempt, modifiedAt, records, statsJson(), addedIn,
                bytes);
    }

    /** This part as kept in a segment (same fields; statistics in the segment's block when it has one). */
    public ManifestPart inSegment(io.stork.manifest.segment.SegmentRef ref) {
        String json = ref.segment().statistics() != null ? null : statsJson;
        return new ManifestPart(path, length, etag, jobId, task, attempt, modifiedAt, records, json, addedIn, tail,
                ref);
    }

    /** Whether statistics were kept for the part (as JSON, or in its segment's block). */
    public boolean hasStatistics() {
        return statsJson != null || segment != null && segment.segment().statistics() != null;
    }

    /**
     * The statistics as JSON: the part's own, or its row of the segment block decoded (slow: one part at a
     * time; readers of many parts use the block, see data skipping's statistics table).
     */
    @SuppressWarnings("unchecked")
    public String statsJson() {
        if (statsJson != null || segment == null || segment.segment().statistics() == null) {
            return statsJson;
        }
        return io.stork.manifest.segment.StatisticsBlocks.codec()
                .map(codec -> segment.segment().derived("json", s -> codec.decode(s.statistics())))
                .map(all -> ((java.util.List<String>) all).get(segment.ordinal())).orElse(null);
    }

    /** The directory part of {@link #path()}, "" for a part at the dataset root. */
    public String directory() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }
}
