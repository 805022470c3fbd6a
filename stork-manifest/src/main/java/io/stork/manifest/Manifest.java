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
 * @param removed     parts earlier generations named and a later one dropped, kept while within retention
 *                    (so that {@link #partsAt} can rebuild those generations)
 * @param history     one line per generation from {@code restorableFrom} on, oldest first
 * @param restorableFrom the oldest generation whose parts this manifest can list (older ones' removed
 *                    parts have left retention)
 * @param properties  the dataset's properties (data skipping's settings, {@code stork.skipping.*}): set by a
 *                    write, carried by every later commit until a write sets them again
 * @param datasetSchema the dataset's schema as its writers gave it, or null (an old manifest, a write that
 *                    did not say it, or one that could not be merged with the dataset's: see
 *                    {@code SchemaEvolution})
 */
public record Manifest(int version, String writer, String jobId, long generation, Operation operation,
                       Instant createdAt, Instant committedAt, List<ManifestPart> parts, List<RemovedPart> removed,
                       List<GenerationInfo> history, long restorableFrom, java.util.Map<String, String> properties,
                       DatasetSchema datasetSchema) {

    /**
     * The newest version this code reads and writes: 2 names segments ({@code segments[]}), written only
     * when a manifest names one; 1 otherwise. Readers accept this and earlier versions.
     */
    public static final int CURRENT_VERSION = 2;

    /** What a commit did to the dataset's previous state. */
    public enum Operation {
        /** A new dataset (nothing was there). */
        CREATE,
        /** Previous parts kept, new parts added. */
        APPEND,
        /** Previous parts replaced (all, or those under the directories the job replaced). */
        OVERWRITE,
        /** Previous parts kept except in the partitions the job wrote. */
        DYNAMIC_PARTITION_OVERWRITE,
        /** The parts of an earlier generation, named again (nothing copied). */
        RESTORE,
        /**
         * The same parts; maintenance fenced jobs whose stray parts it is about to delete, so that they
         * can never commit ({@link io.stork.manifest.commit.Fences}).
         */
        MAINTENANCE,
        /**
         * The rows of an earlier generation's parts, rewritten into new parts (a new layout): those parts
         * replaced, any part committed since kept.
         */
        RELAYOUT;

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
        removed = removed == null ? List.of() : List.copyOf(removed);
        history = history == null ? List.of() : List.copyOf(history);
        if (generation < 1) {
            throw new IllegalArgumentException("generation starts at 1, not " + generation);
        }
        if (restorableFrom < 1 || restorableFrom > generation) {
            restorableFrom = generation;
        }
        if (version < 2 && (parts.stream().anyMatch(p -> p.segment() != null)
                || removed.stream().anyMatch(r -> r.part().segment() != null))) {
            version = 2; // segments are named only from version 2 on
        }
        properties = properties == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(properties));
    }

    /** A manifest without a recorded schema. */
    public Manifest(int version, String writer, String jobId, long generation, Operation operation,
                    Instant createdAt, Instant committedAt, List<ManifestPart> parts, List<RemovedPart> removed,
                    List<GenerationInfo> history, long restorableFrom, java.util.Map<String, String> properties) {
        this(version, writer, jobId, generation, operation, createdAt, committedAt, parts, removed, history,
                restorableFrom, properties, null);
    }

    /** A manifest without dataset properties. */
    public Manifest(int version, String writer, String jobId, long generation, Operation operation,
                    Instant createdAt, Instant committedAt, List<ManifestPart> parts, List<RemovedPart> removed,
                    List<GenerationInfo> history, long restorableFrom) {
        this(version, writer, jobId, generation, operation, createdAt, committedAt, parts, removed, history,
                restorableFrom, java.util.Map.of());
    }

    /** A manifest without history (a first generation, or one read from a writer that kept none). */
    public Manifest(int version, String writer, String jobId, long generation, Operation operation,
                    Instant createdAt, Instant committedAt, List<ManifestPart> parts) {
        this(version, writer, jobId, generation, operation, createdAt, committedAt, parts, List.of(), List.of(),
                generation);
    }

    /**
     * The parts generation {@code g} named, rebuilt from the current parts and the removed ones.
     *
     * @throws IllegalArgumentException if {@code g} is not between {@link #restorableFrom()} and
     *                                  {@link #generation()}
     */
    public List<ManifestPart> partsAt(long g) {
        if (g == generation) {
            return parts;
        }
        if (g < restorableFrom || g > generation) {
            throw new IllegalArgumentException("generation " + g + " is not available: this manifest lists "
                    + (restorableFrom == generation ? "generation " + generation + " only"
                    : "generations " + restorableFrom + " to " + generation));
        }
        List<ManifestPart> result = new java.util.ArrayList<>();
        for (RemovedPart r : removed) {
            if (r.namedBy(g)) {
                result.add(r.part());
            }
        }
        for (ManifestPart p : parts) {
            if (p.addedIn() <= g) {
                result.add(p);
            }
        }
        result.sort(java.util.Comparator.comparingLong(ManifestPart::addedIn));
        return result;
    }

    /** The history line of generation {@code g}, if the manifest still has it. */
    public java.util.Optional<GenerationInfo> info(long g) {
        for (GenerationInfo info : history) {
            if (info.generation() == g) {
                return java.util.Optional.of(info);
            }
        }
        return java.util.Optional.empty();
    }

    /** The latest generation committed at or before {@code instant}, among those this manifest can list. */
    public java.util.OptionalLong generationAt(Instant instant) {
        long found = -1;
        for (GenerationInfo info : history) {
            if (info.generation() >= restorableFrom && !info.committedAt().isAfter(instant)) {
                found = Math.max(found, info.generation());
            }
        }
        if (found < 0 && !committedAt.isAfter(instant)) {
            found = generation;
        }
        return found < 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(found);
    }

    /**
     * The dataset's schema, Spark's schema JSON ({@code StructType.json()}) of its data and partition columns,
     * or null when this manifest records none (written before schemas were recorded, or see
     * {@link #datasetSchema()}).
     */
    public String schema() {
        return datasetSchema == null ? null : datasetSchema.json();
    }

    /** The recorded schema if it describes generation {@code g} (a schema that changed since does not). */
    public DatasetSchema datasetSchemaAt(long g) {
        return datasetSchema != null && datasetSchema.describes(g) && g <= generation ? datasetSchema : null;
    }

    /** This manifest with {@code schema} recorded (a view of an older generation carries its own). */
    public Manifest withDatasetSchema(DatasetSchema schema) {
        return new Manifest(version, writer, jobId, generation, operation, createdAt, committedAt, parts, removed,
                history, restorableFrom, properties, schema);
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
