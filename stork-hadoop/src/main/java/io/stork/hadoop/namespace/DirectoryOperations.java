package io.stork.hadoop.namespace;

import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.StoreIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;

/**
 * mkdirs, delete and rename over a flat namespace of objects (docs/hadoop-filesystem.md): an empty
 * directory is a zero-byte marker {@code <key>/}; a directory with entries needs none, and keeps its
 * parent alive with one when its last entry goes. Rename copies and deletes, and is not atomic for a
 * directory. The classic committer's virtual tree is answered by the commit integration first.
 */
public final class DirectoryOperations {

    private final Namespace namespace;
    private final Listings listings;
    private final ObjectStore store;
    private final KeyPaths paths;

    public DirectoryOperations(Namespace namespace, Listings listings) {
        this.namespace = namespace;
        this.listings = listings;
        this.store = namespace.store();
        this.paths = namespace.paths();
    }

    public boolean mkdirs(Path qualified, String key) throws IOException {
        if (key.isEmpty() || namespace.commits().mkdirs(key)) {
            return true;
        }
        try {
            FileStatus status = namespace.status(qualified, key);
            if (status.isDirectory()) {
                return true;
            }
            throw new FileAlreadyExistsException(qualified + " is a file");
        } catch (FileNotFoundException absent) {
            // create it below
        }
        for (Path parent = qualified.getParent(); parent != null && !parent.isRoot(); parent = parent.getParent()) {
            if (namespace.objectExists(KeyPaths.keyOf(parent))) {
                throw new ParentNotDirectoryException(parent + " is a file, so " + qualified + " cannot be a directory");
            }
        }
        namespace.changed(key);
        store.put(ObjectKey.of(paths.bucket(), key + "/"), PutBody.of(new byte[0]), PutOptions.defaults());
        return true;
    }

    public boolean delete(Path qualified, String key, boolean recursive) throws IOException {
        namespace.changedTree(key);
        Optional<Boolean> virtual = namespace.commits().delete(key, keys -> deleteKeys(qualified, keys));
        if (virtual.isPresent()) {
            return virtual.get();
        }
        if (!key.isEmpty() && namespace.objectExists(key)) {
            store.delete(ObjectKey.of(paths.bucket(), key));
            keepParentDirectory(qualified);
            return true;
        }
        String prefix = key.isEmpty() ? "" : key + "/";
        List<String> keys = new ArrayList<>();
        // Two keys tell an empty directory (its marker only) from a non-empty one.
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(paths.bucket(), prefix).withPageSize(2))) {
            while (it.hasNext() && keys.size() < 2) {
                keys.add(it.next().name());
            }
        }
        boolean onlyMarker = keys.size() == 1 && keys.get(0).equals(prefix);
        if (keys.isEmpty()) {
            return false;
        }
        if (!recursive && !onlyMarker) {
            throw new PathIsNotEmptyDirectoryException(qualified.toString());
        }
        if (recursive) {
            keys = listings.allKeysUnder(prefix);
        }
        deleteKeys(qualified, keys);
        if (!key.isEmpty()) {
            keepParentDirectory(qualified);
        }
        return true;
    }

    public boolean rename(Path src, Path destination) throws IOException {
        Path dst = destination;
        String srcKey = KeyPaths.keyOf(src);
        if (srcKey.isEmpty()) {
            return false;
        }
        Optional<Boolean> virtual = namespace.commits().rename(srcKey, KeyPaths.keyOf(dst));
        if (virtual.isPresent()) {
            return virtual.get();
        }
        FileStatus srcStatus;
        try {
            srcStatus = namespace.status(src, srcKey);
        } catch (FileNotFoundException e) {
            return false;
        }
        if (src.equals(dst)) {
            return srcStatus.isFile();
        }
        Optional<FileStatus> dstStatus = statusIfAny(dst);
        if (dstStatus.isPresent() && dstStatus.get().isDirectory()) {
            dst = new Path(dst, src.getName());
            if (statusIfAny(dst).isPresent()) {
                return false;
            }
        } else if (dstStatus.isPresent()) {
            return false;
        } else {
            Path parent = dst.getParent();
            if (parent != null && !parent.isRoot()) {
                Optional<FileStatus> parentStatus = statusIfAny(parent);
                if (parentStatus.isEmpty() || !parentStatus.get().isDirectory()) {
                    return false;
                }
            }
        }
        String dstKey = KeyPaths.keyOf(dst);
        namespace.changedTree(srcKey);
        namespace.changedTree(dstKey);
        if (srcStatus.isFile()) {
            store.copy(ObjectKey.of(paths.bucket(), srcKey), ObjectKey.of(paths.bucket(), dstKey));
            store.delete(ObjectKey.of(paths.bucket(), srcKey));
            keepParentDirectory(src);
            return true;
        }
        if ((dstKey + "/").startsWith(srcKey + "/")) {
            throw new IOException("cannot rename " + src + " into its own subtree " + dst);
        }
        // A directory: copy every object, then delete the sources. Not atomic (docs/hadoop-filesystem.md).
        List<String> sources = listings.allKeysUnder(srcKey + "/");
        for (String key : sources) {
            store.copy(ObjectKey.of(paths.bucket(), key), ObjectKey.of(paths.bucket(),
                    dstKey + key.substring(srcKey.length())));
        }
        if (!sources.isEmpty()) {
            deleteKeys(src, sources);
        }
        keepParentDirectory(src);
        return true;
    }

    private Optional<FileStatus> statusIfAny(Path path) throws IOException {
        try {
            return Optional.of(namespace.status(path, KeyPaths.keyOf(path)));
        } catch (FileNotFoundException absent) {
            return Optional.empty();
        }
    }

    /**
     * Deleting or moving away a directory's last entry would make the (implicit) directory vanish, which
     * Hadoop callers do not expect: if the parent is now empty, a marker keeps it. Costs 1 LIST, and
     * 1 PUT when the parent became empty.
     */
    private void keepParentDirectory(Path path) throws IOException {
        Path parent = path.getParent();
        if (parent == null || parent.isRoot()) {
            return;
        }
        String parentKey = KeyPaths.keyOf(parent);
        if (!namespace.hasEntriesUnder(parentKey)) {
            store.put(ObjectKey.of(paths.bucket(), parentKey + "/"), PutBody.of(new byte[0]), PutOptions.defaults());
        }
    }

    void deleteKeys(Path path, List<String> keys) throws IOException {
        var result = store.deleteAll(paths.bucket(), keys);
        if (!result.allDeleted()) {
            throw new IOException("delete of " + path + " left " + result.failures().size() + " objects, e.g. "
                    + result.failedKeys().get(0) + ": " + result.failures().get(result.failedKeys().get(0)));
        }
    }
}
