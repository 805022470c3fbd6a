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
    private final io.stork.store.ObjectStore store;
    private final Function<Path, String> keyOf;

    DatasetAccess(KeyPaths paths, Namespace namespace, io.stork.store.ObjectStore store, Function<Path, String> keyOf) {
        this.paths = paths;
        this.namespace = namespace;
        this.store = store;
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

    /**
     * Every object under the directory {@code path} as the store lists it, named by a manifest or not (1
     * LIST per 1,000 objects): for a committer removing what its own losing attempts wrote, which the
     * file system's listings hide behind the manifest.
     */
    public java.util.List<Path> objectsUnder(Path path) throws IOException {
        String key = keyOf.apply(path);
        java.util.List<Path> objects = new java.util.ArrayList<>();
        try (io.stork.store.StoreIterator<io.stork.store.ListEntry> pages = store
                .list(io.stork.store.ListRequest.of(paths.bucket(), key.isEmpty() ? "" : key + "/"))) {
            while (pages.hasNext()) {
                if (pages.next() instanceof io.stork.store.ListEntry.ListedObject object && !object.name().endsWith("/")) {
                    objects.add(paths.pathOf(object.name()));
                }
            }
        }
        return objects;
    }

    /** A committer of this process has just committed {@code manifest} at {@code path}: cache it as read. */
    public void committed(Path path, Manifest manifest) {
        namespace.committed(keyOf.apply(path), manifest);
    }
}
