package io.stork.hadoop;

import io.stork.hadoop.commit.CommitIntegration;
import io.stork.hadoop.io.StorkOutputStream;
import io.stork.hadoop.io.SuccessMarkerStream;
import io.stork.hadoop.namespace.KeyPaths;
import io.stork.hadoop.namespace.Namespace;
import io.stork.hadoop.namespace.StorkFileStatus;
import io.stork.manifest.PartNames;
import io.stork.manifest.SnapshotRef;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutOptions;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a created file goes and what its close does: a task attempt's file to its final, attempt-named
 * key (the commit integration says which), the classic committer's empty {@code _SUCCESS} to a commit, any
 * other file to its own key; and, once written, what the namespace and the committer learn from the upload
 * itself (size, ETag), so that nobody needs a HEAD.
 */
final class ObjectCreation {

    private final ObjectStore store;
    private final KeyPaths paths;
    private final Namespace namespace;
    private final CommitIntegration commits;
    private final boolean readRaw;
    private final java.util.List<io.stork.hadoop.io.TailMeasure> tailMeasures;

    ObjectCreation(ObjectStore store, KeyPaths paths, Namespace namespace, CommitIntegration commits, boolean readRaw,
                   java.util.List<io.stork.hadoop.io.TailMeasure> tailMeasures) {
        this.tailMeasures = tailMeasures;
        this.store = store;
        this.paths = paths;
        this.namespace = namespace;
        this.commits = commits;
        this.readRaw = readRaw;
    }

    /**
     * Opens the upload of a file. Without overwrite, the existence check (1 HEAD) is skipped when
     * {@code checkExisting} is false or the name is a Stork attempt part (unique by construction), and the
     * PUT itself is conditional where the API honours it, so no concurrent create is ever overwritten.
     */
    FSDataOutputStream create(Path requested, String asked, boolean overwrite, boolean checkExisting,
                              FileSystem.Statistics statistics) throws IOException {
        String requestedKey = KeyPaths.keyOf(requested);
        if (requestedKey.isEmpty()) {
            throw new FileAlreadyExistsException(asked + " is the root directory");
        }
        if (!readRaw && SnapshotRef.of(requestedKey).isPresent()) {
            throw new IOException(asked + " is in a past generation of a dataset (" + SnapshotRef.of(requestedKey).get()
                    .root() + "), which is read-only: write to the dataset itself");
        }
        // A task attempt's file under Hadoop's classic temporary layout goes straight to its final,
        // attempt-named key: nothing will need renaming (docs/commit-protocol.md, "RDD writes").
        Optional<String> attemptDirectory = commits.attemptDirectory(requestedKey);
        String key = attemptDirectory.isPresent()
                ? PartNames.finalKeyOfAttemptFile(requestedKey).orElse(requestedKey) : requestedKey;
        Path qualified = key.equals(requestedKey) ? requested : paths.pathOf(key);
        boolean unique = PartNames.isAttemptNamed(qualified.getName());
        if (!overwrite && checkExisting && !unique && namespace.objectExists(key)) {
            throw new FileAlreadyExistsException(asked + " already exists");
        }
        PutOptions options = !overwrite && store.supportsConditionalCreate()
                ? PutOptions.defaults().withIfNotExists() : PutOptions.defaults();
        ObjectKey target = ObjectKey.of(paths.bucket(), key);
        namespace.changed(key);
        commits.objectCreated(key);
        if (commits.interceptsSuccessMarkers() && qualified.getName().equals(PartNames.MANIFEST)) {
            String directory = key.length() == PartNames.MANIFEST.length() ? ""
                    : key.substring(0, key.length() - PartNames.MANIFEST.length() - 1);
            return new FSDataOutputStream(new SuccessMarkerStream(store.create(target, options), asked,
                    () -> commits.commitOnSuccessMarker(directory), () -> namespace.changed(key)), statistics);
        }
        return new FSDataOutputStream(new StorkOutputStream(store.create(target, options), asked, tailMeasures, done -> {
            io.stork.store.ObjectInfo written = done.info();
            namespace.written(key, StorkFileStatus.written(written.length(), paths.blockSize(),
                    System.currentTimeMillis(), qualified, written.etag(), done.tail()));
            attemptDirectory.ifPresent(dir -> commits.written(dir, requestedKey,
                    new WrittenFile(qualified, written.length(), written.etag())));
        }), statistics);
    }
}
