package io.stork.hadoop;

import io.stork.hadoop.namespace.KeyPaths;
import io.stork.hadoop.namespace.Namespace;
import io.stork.manifest.Manifest;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Function;
import org.apache.hadoop.fs.Path;

/**
 * What the layers above (Spark's data skipping, the committers) ask a {@code stork://} file system about
 * datasets, in one place: the committed parts of a dataset as its cached manifest names them, and the
 * manifest a committer of this process has just written. Obtained from {@link StorkFileSystem#datasets()}.
 */
public final class DatasetAccess {

    private final KeyPaths paths;
    private final Namespace namespace;
    private final Function<Path, String> keyOf;

    DatasetAccess(KeyPaths paths, Namespace namespace, Function<Path, String> keyOf) {
        this.paths = paths;
        this.namespace = namespace;
        this.keyOf = keyOf;
    }

    /**
     * The committed parts of the dataset holding {@code path} (its root, a directory in it, or a pinned
     * generation): the cached manifest, else a GET per directory level up to the dataset's root. Empty
     * outside any dataset.
     */
    public Optional<DatasetParts> covering(Path path) throws IOException {
        return namespace.datasetCovering(keyOf.apply(path)).map(manifest -> new DatasetParts(paths, manifest));
    }

    /**
     * The committed parts of the dataset whose root is {@code path} as the file system has them cached (a
     * status or listing of the root has just read its manifest, or this process committed it); empty
     * otherwise. Never a call.
     */
    public Optional<DatasetParts> cachedAt(Path path) {
        return namespace.cachedDatasetAt(keyOf.apply(path)).map(manifest -> new DatasetParts(paths, manifest));
    }

    /**
     * The committed parts of the dataset whose root is {@code path} (or a past generation of it,
     * {@code t@v3}) as a listing of the root reads them, which is where a query starts: the generation
     * current now (a cached manifest revalidated with one conditional GET, none when a status call of the
     * same query read it moments ago). Empty when {@code path} is not a dataset's root (a directory inside
     * one, a plain directory, a file, nothing), which costs no call a listing of it would not make.
     */
    public Optional<DatasetParts> atRoot(Path path) throws IOException {
        String key = keyOf.apply(path);
        return namespace.manifestForListing(key).filter(manifest -> manifest.rootKey().equals(key))
                .map(manifest -> new DatasetParts(paths, manifest));
    }

    /** A committer of this process has just committed {@code manifest} at {@code path}: cache it as read. */
    public void committed(Path path, Manifest manifest) {
        namespace.committed(keyOf.apply(path), manifest);
    }
}
