package io.stork.hadoop;

import io.stork.hadoop.namespace.KeyPaths;
import io.stork.hadoop.namespace.LoadedManifest;
import io.stork.manifest.ManifestPart;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * The committed parts of one dataset generation, as its manifest names them, looked up by the paths a
 * listing of the dataset gives: for readers that use what the manifest knows of a part (its statistics)
 * without another call. Immutable.
 */
public final class DatasetParts {

    private final KeyPaths paths;
    private final LoadedManifest manifest;

    DatasetParts(KeyPaths paths, LoadedManifest manifest) {
        this.paths = paths;
        this.manifest = manifest;
    }

    /** The dataset's root as it was read: for a past generation, its pinned name ({@code t@v3}). */
    public Path root() {
        return paths.pathOf(manifest.rootKey());
    }

    /** The directories (keys relative to the root, "" the root itself) that hold parts directly; no order. */
    public java.util.Set<String> directories() {
        return java.util.Collections.unmodifiableSet(manifest.filesByDirectory().keySet());
    }

    /** The path of a directory of the dataset (key relative to the root). */
    public Path directory(String relative) {
        return relative.isEmpty() ? root() : paths.pathOf(manifest.rootKey().isEmpty() ? relative
                : manifest.rootKey() + "/" + relative);
    }

    /** Positions of the parts directly in a directory (key relative to the root), in the manifest's order. */
    public int[] ordinalsIn(String relativeDirectory) {
        return paths.ordinalsIn(manifest, relativeDirectory);
    }

    /**
     * The part at a position of {@link #all()} as a listing of its directory gives it (a located status
     * with its ETag, that {@link #listed} recognises): no call. Callers that skip parts before making
     * statuses make only those they keep.
     */
    public org.apache.hadoop.fs.FileStatus status(int ordinal) {
        return paths.listedPart(manifest, ordinal);
    }

    /** The generation these parts are. */
    /** The job that committed this generation. */
    public String jobId() {
        return manifest.manifest().jobId();
    }

    public long generation() {
        return manifest.manifest().generation();
    }

    /** The schema the manifest records for this generation, or null (see docs/manifest-format.md). */
    public io.stork.manifest.DatasetSchema schema() {
        return manifest.manifest().datasetSchema();
    }

    /** The dataset's properties, as its manifest keeps them. */
    public java.util.Map<String, String> properties() {
        return manifest.manifest().properties();
    }

    /** Every part, in the manifest's order ({@link Listed#ordinal()} is a position in it). */
    public java.util.List<ManifestPart> all() {
        return manifest.manifest().parts();
    }

    /**
     * A view derived from these parts (an index of their statistics), computed once per generation and
     * kept while its manifest is cached, so repeated queries do not derive it again.
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(String name, java.util.function.Function<DatasetParts, T> compute) {
        return (T) manifest.derived().computeIfAbsent(name, k -> compute.apply(this));
    }

    /** A listed file's dataset generation and part, when it was listed from a dataset's manifest. */
    public record Listed(DatasetParts dataset, ManifestPart part, int ordinal) {
    }

    /**
     * The dataset and part a file status was listed from, without looking its path up: present for statuses
     * a {@code stork://} listing made from a manifest, empty for any other.
     */
    public static Optional<Listed> listed(org.apache.hadoop.fs.FileStatus status) {
        return listed(status, null);
    }

    /**
     * As {@link #listed(org.apache.hadoop.fs.FileStatus)}, answering with {@code previous} when the status was
     * listed from the same cached manifest, so that a caller going through a million files of one dataset
     * does not make a million views of it.
     */
    public static Optional<Listed> listed(org.apache.hadoop.fs.FileStatus status, DatasetParts previous) {
        if (status instanceof io.stork.hadoop.namespace.StorkFileStatus stork && stork.part() != null) {
            if (previous != null && previous.manifest == stork.manifest()) {
                return Optional.of(new Listed(previous, stork.part(), stork.ordinal()));
            }
            // The raw authority: a bucket name has nothing to decode, and decoding per file shows at a million.
            return Optional.of(new Listed(new DatasetParts(new KeyPaths(status.getPath().toUri().getRawAuthority(),
                    status.getBlockSize()), stork.manifest()), stork.part(), stork.ordinal()));
        }
        return Optional.empty();
    }

    /** The part a file of the dataset is, or empty (another bucket, outside the dataset, not committed). */
    public Optional<ManifestPart> part(Path file) {
        if (!KeyPaths.SCHEME.equals(file.toUri().getScheme()) || !paths.bucket().equals(file.toUri().getAuthority())) {
            return Optional.empty();
        }
        String relative = manifest.relative(KeyPaths.keyOf(file));
        return relative == null ? Optional.empty() : Optional.ofNullable(manifest.part(relative));
    }
}
