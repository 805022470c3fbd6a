package io.stork.hadoop.namespace;

import io.stork.hadoop.commit.CommitIntegration;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.manifest.SnapshotRef;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.StoreIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * What is at a key of a bucket: the file statuses, existence checks and read targets the file system
 * answers with, resolved in the order that costs least (docs/hadoop-filesystem.md): this file system's
 * own writes (status cache), commit paths (the classic committer's virtual tree), a cached manifest
 * covering the key (inside a dataset the manifest is the namespace), then the store (HEAD, manifest
 * probe, LIST). Listings are {@link Listings}'.
 */
public final class Namespace {

    /** Where a read of a key goes, and what it must find there. */
    /** What to read for a path: the object, its expected ETag and length (-1: unknown), and who committed it. */
    public record ReadTarget(String objectKey, String etag, long length, String committedIn, int tail) {
    }

    private final ObjectStore store;
    private final KeyPaths paths;
    private final DatasetManifests manifests;
    private final StatusCache statusCache;
    private final CommitIntegration commits;
    private final boolean readRaw;

    public Namespace(ObjectStore store, KeyPaths paths, DatasetManifests manifests, StatusCache statusCache,
                     CommitIntegration commits, boolean readRaw) {
        this.store = store;
        this.paths = paths;
        this.manifests = manifests;
        this.statusCache = statusCache;
        this.commits = commits;
        this.readRaw = readRaw;
    }

    KeyPaths paths() {
        return paths;
    }

    DatasetManifests manifests() {
        return manifests;
    }

    CommitIntegration commits() {
        return commits;
    }

    boolean readRaw() {
        return readRaw;
    }

    ObjectStore store() {
        return store;
    }

    // ---- this file system's own changes ----

    /** This file system changed {@code key}: drop what the caches say about it. */
    public void changed(String key) {
        statusCache.invalidate(key);
        manifests.invalidate(key);
    }

    public void changedTree(String key) {
        statusCache.invalidateTree(key);
        manifests.invalidate(key);
    }

    /** What this file system just wrote, known without a HEAD (a task's statistics and commit ask at once). */
    public void written(String key, FileStatus status) {
        changed(key);
        statusCache.put(key, status);
    }

    /** A GET of {@code <dir>/_SUCCESS} found nothing: the manifest cache need not ask again. */
    public void manifestAbsent(String manifestKey) {
        manifests.recordAbsent(manifestKey.length() == PartNames.MANIFEST.length() ? ""
                : manifestKey.substring(0, manifestKey.length() - PartNames.MANIFEST.length() - 1));
    }

    // ---- status ----

    public FileStatus status(Path qualified, String key) throws IOException {
        if (key.isEmpty()) {
            return paths.directory(qualified);
        }
        FileStatus cached = statusCache.get(key);
        if (cached != null) {
            return cached;
        }
        Optional<FileStatus> virtual = commits.status(key);
        if (virtual.isPresent()) {
            return virtual.get();
        }
        Optional<LoadedManifest> covering = coveringManifest(key);
        if (covering.isPresent()) {
            return statusFromManifest(qualified, key, covering.get());
        }
        if (!readRaw && SnapshotRef.of(key).filter(ref -> ref.root().equals(key)).isPresent()) {
            manifestFor(key); // a pinned generation that cannot be read fails here, naming why
            return paths.directory(qualified);
        }
        if (looksLikeDataset(qualified.getName())) {
            if (manifestFor(key).isPresent()) {
                return paths.directory(qualified);
            }
            return statusByListing(qualified, key);
        }
        try {
            return headStatus(qualified, key);
        } catch (ObjectNotFoundException e) {
            if (hasEntriesUnder(key)) {
                return paths.directory(qualified);
            }
            throw new FileNotFoundException("No such file or directory: " + qualified);
        }
    }

    /**
     * exists(): a directory with a Stork manifest costs one GET (which a reader's listing then reuses);
     * anything else one GET of the absent manifest plus one LIST that tells a file, a directory and
     * nothing apart; a name with an extension (taken for a file) only the LIST. An output path a Stork commit protocol announced skips the manifest: its writer
     * needs only the LIST, whose answer goes to {@code listed} (the protocol learns from it whether the
     * output is new).
     */
    public boolean exists(Path qualified, String key, boolean announcedOutput,
                          java.util.function.Consumer<Boolean> listed) throws IOException {
        if (key.isEmpty() || statusCache.get(key) != null) {
            return true;
        }
        try {
            if (commits.status(key).isPresent()) {
                return true;
            }
        } catch (FileNotFoundException e) {
            return false;
        }
        Optional<LoadedManifest> covering = coveringManifest(key);
        if (covering.isPresent()) {
            try {
                statusFromManifest(qualified, key, covering.get());
                return true;
            } catch (FileNotFoundException e) {
                return false;
            }
        }
        // A name with an extension is taken for a file, as status() takes it: no manifest probe, the LIST
        // below tells a file, a directory (a dataset named "x.parquet" too) and nothing apart.
        if (!announcedOutput && looksLikeDataset(qualified.getName()) && manifestFor(key).isPresent()) {
            return true;
        }
        boolean exists;
        try {
            statusByListing(qualified, key);
            exists = true;
        } catch (FileNotFoundException e) {
            exists = false;
        }
        listed.accept(exists);
        return exists;
    }

    /**
     * For a listing of a name with an extension, which is most often a file (Spark lists each file of a
     * CSV or JSON input again to infer its schema): the file's status if it is one (cached, named by a
     * cached manifest, or 1 HEAD), else empty, and the listing goes on as for a directory.
     */
    public Optional<FileStatus> fileIfNamedLikeOne(Path qualified, String key) throws IOException {
        String name = qualified.getName();
        if (key.isEmpty() || name.indexOf('.') <= 0 || name.startsWith("_")) {
            return Optional.empty();
        }
        FileStatus cached = statusCache.get(key);
        if (cached != null) {
            return cached.isFile() ? Optional.of(cached) : Optional.empty();
        }
        Optional<LoadedManifest> covering = coveringManifest(key);
        if (covering.isPresent()) {
            try {
                FileStatus status = statusFromManifest(qualified, key, covering.get());
                return status.isFile() ? Optional.of(status) : Optional.empty();
            } catch (FileNotFoundException e) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(headStatus(qualified, key));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
    }

    /** A file's status by one HEAD, kept in the status cache. */
    private FileStatus headStatus(Path qualified, String key) throws IOException {
        ObjectInfo info = store.head(ObjectKey.of(paths.bucket(), key));
        FileStatus status = paths.file(qualified, info.length(), info.lastModified(), info.etag());
        statusCache.put(key, status);
        return status;
    }

    /** Whether an object has this exact key (1 HEAD). */
    public boolean objectExists(String key) throws IOException {
        try {
            store.head(ObjectKey.of(paths.bucket(), key));
            return true;
        } catch (ObjectNotFoundException e) {
            return false;
        }
    }

    public boolean hasEntriesUnder(String key) throws IOException {
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(paths.bucket(), key + "/").withPageSize(1))) {
            return it.hasNext();
        }
    }

    /**
     * A file, a directory or nothing, told apart by one LIST of the key as prefix with "/" as delimiter:
     * the key itself, or "key/", sorts first among the entries of its kind.
     */
    FileStatus statusByListing(Path qualified, String key) throws IOException {
        String directoryPrefix = key + "/";
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(paths.bucket(), key).withDelimiter("/"))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                if (entry.name().equals(key) && entry instanceof ListEntry.ListedObject object) {
                    FileStatus status = paths.file(qualified, object.length(), object.lastModified(), object.etag());
                    statusCache.put(key, status);
                    return status;
                }
                if (entry.name().equals(directoryPrefix)) {
                    return paths.directory(qualified);
                }
                if (entry.name().compareTo(directoryPrefix) > 0) {
                    break;
                }
            }
        }
        throw new FileNotFoundException("No such file or directory: " + qualified);
    }

    // ---- reads ----

    /**
     * Where a read of {@code key} goes. A part that a cached manifest names is read with the ETag its
     * generation committed as precondition, so a part replaced since fails with one line instead of
     * returning other bytes; a part of a pinned past generation is read under its real key.
     */
    public ReadTarget readTarget(Path path, String key, String knownEtag) throws IOException {
        Optional<LoadedManifest> covering = coveringManifest(key);
        if (covering.isEmpty() && !readRaw && SnapshotRef.of(key).isPresent()) {
            covering = manifests.at(SnapshotRef.of(key).get().root()); // an executor's first read of one
        }
        if (covering.isPresent()) {
            LoadedManifest manifest = covering.get();
            ManifestPart part = manifest.part(manifest.relative(key));
            if (part == null && manifest.pinned()) {
                throw new FileNotFoundException(path + ": not a part of generation " + manifest.manifest().generation()
                        + " of " + paths.pathOf(manifest.objectRootKey()));
            }
            if (part != null) {
                String committedIn = part.etag() == null ? null : "generation " + manifest.manifest().generation()
                        + " of " + paths.pathOf(manifest.objectRootKey());
                return new ReadTarget(manifest.objectKeyOf(part), part.etag() != null ? part.etag() : knownEtag,
                        part.length(), committedIn, part.tail());
            }
        }
        return new ReadTarget(key, knownEtag, -1, null, 0);
    }

    // ---- manifests ----

    /**
     * A cached manifest of a dataset containing {@code key}, when its answer is the truth for that key:
     * inside a committed dataset the manifest is the namespace (parts, and the directories leading to
     * them). The manifest itself and the internal directory are objects like any other.
     */
    Optional<LoadedManifest> coveringManifest(String key) {
        if (readRaw) {
            return Optional.empty();
        }
        Optional<LoadedManifest> covering = manifests.cachedCovering(key);
        if (covering.isEmpty()) {
            return covering;
        }
        String relative = covering.get().relative(key);
        if (relative.equals(PartNames.MANIFEST) || relative.equals(PartNames.INTERNAL_DIRECTORY)
                || relative.startsWith(PartNames.INTERNAL_DIRECTORY + "/")) {
            return Optional.empty();
        }
        return covering;
    }

    /** This process committed {@code manifest} to the dataset at {@code key} (after the write's own invalidation). */
    public void committed(String key, io.stork.manifest.Manifest manifest) {
        if (!readRaw && !isInternal(key)) {
            manifests.recordCommitted(key, manifest);
        }
    }

    /**
     * The manifest that governs a directory's listing. A listing of the dataset root is where a query
     * starts reading a dataset, so there the cached manifest is revalidated (one conditional GET, 304
     * while unchanged; none when this query's status call read it moments ago): every query lists the
     * generation current when it started, and its tasks read that generation's parts, which retention
     * keeps readable after later commits.
     */
    public Optional<LoadedManifest> manifestForListing(String key) throws IOException {
        if (readRaw || isInternal(key)) {
            return Optional.empty();
        }
        Optional<LoadedManifest> covering = manifests.cachedCovering(key);
        if (covering.isPresent() && !covering.get().rootKey().equals(key)) {
            return covering; // a directory below the root: the root's listing revalidated it
        }
        return manifests.forListing(key);
    }

    /** The manifest of the dataset whose root is {@code key} if it is cached; no call. */
    public Optional<LoadedManifest> cachedDatasetAt(String key) {
        return readRaw || isInternal(key) ? Optional.empty() : manifests.cachedAt(key);
    }

    /** The manifest of the dataset holding {@code key}: cached, else found by a GET per level up; none in raw mode. */
    public Optional<LoadedManifest> datasetCovering(String key) throws IOException {
        if (readRaw || isInternal(key)) {
            return Optional.empty();
        }
        Optional<LoadedManifest> covering = manifests.cachedCovering(key);
        if (covering.isEmpty() && SnapshotRef.of(key).isPresent()) {
            covering = manifests.at(SnapshotRef.of(key).get().root());
        }
        return covering.isPresent() ? covering : manifests.findCovering(key);
    }

    FileStatus statusFromManifest(Path qualified, String key, LoadedManifest manifest) throws FileNotFoundException {
        String relative = manifest.relative(key);
        if (manifest.isDirectory(relative)) {
            return paths.directory(qualified);
        }
        ManifestPart part = manifest.part(relative);
        if (part != null) {
            return paths.part(manifest, part);
        }
        throw new FileNotFoundException("No such file or directory: " + qualified + " (not in the manifest of the "
                + "dataset " + paths.pathOf(manifest.rootKey()) + "; fs.stork.read.raw=true shows every object)");
    }

    /** The manifest that governs a directory's status: cached covering one, else the directory's own. */
    Optional<LoadedManifest> manifestFor(String key) throws IOException {
        if (readRaw || isInternal(key)) {
            return Optional.empty();
        }
        Optional<LoadedManifest> covering = manifests.cachedCovering(key);
        return covering.isPresent() ? covering : manifests.at(key);
    }

    /**
     * Which to try first for a path's status, a HEAD (a file) or its manifest (a dataset), when neither is
     * cached: a name with an extension ("sales.csv", "part-0.parquet") or a hidden one is taken for a file,
     * any other name ("sales", "2024") for a dataset. Only the cost depends on the guess (one wasted
     * probe when it is wrong), never the answer.
     */
    private boolean looksLikeDataset(String name) {
        return !readRaw && !name.contains(".") && !name.startsWith("_");
    }

    /** Stork's own bookkeeping inside a dataset ({@code _stork/}): plain objects, never a dataset. */
    static boolean isInternal(String key) {
        return key.equals(PartNames.INTERNAL_DIRECTORY) || key.startsWith(PartNames.INTERNAL_DIRECTORY + "/")
                || key.endsWith("/" + PartNames.INTERNAL_DIRECTORY) || key.contains("/" + PartNames.INTERNAL_DIRECTORY + "/");
    }
}
