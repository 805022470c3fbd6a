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

    private final String bucket;
    private final LoadedManifest manifest;

    DatasetParts(String bucket, LoadedManifest manifest) {
        this.bucket = bucket;
        this.manifest = manifest;
    }

    /** The generation these parts are. */
    public long generation() {
        return manifest.manifest().generation();
    }

    /** The dataset's properties, as its manifest keeps them. */
    public java.util.Map<String, String> properties() {
        return manifest.manifest().properties();
    }

    /** Every part, in the manifest's order. */
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

    /** The part a file of the dataset is, or empty (another bucket, outside the dataset, not committed). */
    public Optional<ManifestPart> part(Path file) {
        if (!KeyPaths.SCHEME.equals(file.toUri().getScheme()) || !bucket.equals(file.toUri().getAuthority())) {
            return Optional.empty();
        }
        String relative = manifest.relative(KeyPaths.keyOf(file));
        return relative == null ? Optional.empty() : Optional.ofNullable(manifest.part(relative));
    }
}
