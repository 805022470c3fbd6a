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

    /** The part a file of the dataset is, or empty (another bucket, outside the dataset, not committed). */
    public Optional<ManifestPart> part(Path file) {
        if (!KeyPaths.SCHEME.equals(file.toUri().getScheme()) || !bucket.equals(file.toUri().getAuthority())) {
            return Optional.empty();
        }
        String relative = manifest.relative(KeyPaths.keyOf(file));
        return relative == null ? Optional.empty() : Optional.ofNullable(manifest.part(relative));
    }
}
