package io.stork.hadoop;

import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.manifest.SnapshotRef;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;

/**
 * A Hadoop {@link FileSystem} over object storage, {@code stork://<bucket>/<key>}, through the S3 or the
 * Swift API (per bucket: {@code fs.stork.bucket.<bucket>.api}). Directories are key prefixes; see
 * docs/hadoop-filesystem.md for the representation of empty directories and the cost of each call.
 */
public class StorkFileSystem extends FileSystem implements org.apache.hadoop.fs.statistics.IOStatisticsSource {

    public static final String SCHEME = "stork";
    private static final long DEFAULT_READAHEAD = 1024 * 1024;
    private static final long DEFAULT_BLOCK_SIZE = 128L * 1024 * 1024;

    private URI uri;
    private String bucket;
    private ObjectStore store;
    private Path workingDirectory;
    private long readahead;
    private long blockSize;
    private java.util.concurrent.ExecutorService vectoredReadPool;
    private StatusCache statusCache;
    private DatasetManifests manifests;
    /**
     * Task attempts' files, per bucket and shared by every instance in the JVM: a writer and its committer
     * may hold different instances (FileSystem caching off, or a new instance per configuration), and the
     * committer must still find what the writer wrote.
     */
    private static final java.util.concurrent.ConcurrentHashMap<String, AttemptOutputs> ATTEMPTS_BY_BUCKET =
            new java.util.concurrent.ConcurrentHashMap<>();
    private AttemptOutputs attemptOutputs;
    private ClassicCommitEmulation classicCommit;
    private boolean readRaw;
    private org.apache.hadoop.fs.statistics.IOStatistics ioStatistics;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        setConf(conf);
        bucket = name.getAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new IOException("a Stork URI names its bucket: stork://<bucket>/<path>, not " + name);
        }
        uri = URI.create(SCHEME + "://" + bucket);
        StorkConfig config = new StorkConfig(conf, bucket);
        store = ObjectStoreFactory.create(config);
        readahead = config.getBytes(StorkConfig.READAHEAD_RANGE, DEFAULT_READAHEAD);
        blockSize = config.getBytes(StorkConfig.BLOCK_SIZE, DEFAULT_BLOCK_SIZE);
        workingDirectory = makeQualified(new Path("/user", UserGroupInformation.getCurrentUser().getShortUserName()));
        ioStatistics = StoreIOStatistics.of(store.statistics());
        statusCache = new StatusCache(config.getInt(StorkConfig.STATUS_CACHE_SIZE, 10_000),
                config.getDuration(StorkConfig.STATUS_CACHE_TTL, java.time.Duration.ofMinutes(5)));
        manifests = new DatasetManifests(store, bucket, config.getInt(StorkConfig.MANIFEST_CACHE_SIZE, 100),
                config.getDuration(StorkConfig.MANIFEST_CACHE_TTL, java.time.Duration.ofMinutes(1)),
                config.commitSettings().retention());
        readRaw = config.getBoolean(StorkConfig.READ_RAW, false);
        attemptOutputs = ATTEMPTS_BY_BUCKET.computeIfAbsent(bucket, b -> new AttemptOutputs());
        if (config.getBoolean(StorkConfig.CLASSIC_COMMITTER_EMULATION, true)) {
            classicCommit = new ClassicCommitEmulation(store, bucket, attemptOutputs, manifests,
                    new ClassicCommitEmulation.StatusFactory() {
                        @Override
                        public FileStatus file(String key, long length) {
                            return fileStatus(pathOf(key), length, 0);
                        }

                        @Override
                        public FileStatus directory(String key) {
                            return directoryStatus(pathOf(key));
                        }
                    }, config.commitSettings());
        }
        int threads = config.getInt(StorkConfig.VECTORED_READ_THREADS, 8);
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        vectoredReadPool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "stork-vectored-read-" + bucket + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public URI getUri() {
        return uri;
    }

    /** The store client, for the layers above (and tests) that need its statistics. */
    public ObjectStore store() {
        return store;
    }

    @Override
    public long getDefaultBlockSize() {
        return blockSize;
    }

    @Override
    public Path getWorkingDirectory() {
        return workingDirectory;
    }

    @Override
    public void setWorkingDirectory(Path directory) {
        workingDirectory = makeQualified(directory);
    }

    /** The object key of a path: its absolute path without the leading slash; "" for the root. */
    String keyOf(Path path) {
        Path qualified = makeQualified(path);
        String p = qualified.toUri().getPath();
        return p.startsWith("/") ? p.substring(1) : p;
    }

    private ObjectKey objectKey(Path path) {
        return ObjectKey.of(bucket, keyOf(path));
    }

    private Path pathOf(String key) {
        String trimmed = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        return new Path(SCHEME, bucket, "/" + trimmed);
    }

    // ---- read ----

    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        String key = keyOf(path);
        if (key.isEmpty()) {
            throw new FileNotFoundException(path + " is a directory");
        }
        try {
            return new FSDataInputStream(openObject(path, key, -1, null));
        } catch (FileNotFoundException e) {
            if (key.equals(PartNames.MANIFEST) || key.endsWith("/" + PartNames.MANIFEST)) {
                // A committer just looked for a manifest: the manifest cache need not ask again.
                manifests.recordAbsent(key.length() == PartNames.MANIFEST.length() ? ""
                        : key.substring(0, key.length() - PartNames.MANIFEST.length() - 1));
            }
            throw e;
        }
    }

    /**
     * openFile(): with a FileStatus or a length supplied, no call at all until the first read (whose GET
     * starts where the reader is); otherwise as {@link #open}. Mandatory options Stork does not know are
     * rejected, as the API requires.
     */
    @Override
    protected java.util.concurrent.CompletableFuture<FSDataInputStream> openFileWithOptions(Path path,
            org.apache.hadoop.fs.impl.OpenFileParameters parameters) throws IOException {
        for (String mandatory : parameters.getMandatoryKeys()) {
            if (!mandatory.startsWith("fs.option.openfile.")) {
                throw new IllegalArgumentException("unknown mandatory option " + mandatory + " for " + path);
            }
        }
        long length = -1;
        FileStatus status = parameters.getStatus();
        if (status != null && status.isFile()) {
            length = status.getLen();
        } else {
            String declared = parameters.getOptions().getTrimmed(
                    org.apache.hadoop.fs.Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH);
            if (declared != null && !declared.isEmpty()) {
                // A hint (callers may pass it as a double): the first GET reports the true length.
                try {
                    length = (long) Double.parseDouble(declared);
                } catch (NumberFormatException e) {
                    length = -1;
                }
            }
        }
        java.util.concurrent.CompletableFuture<FSDataInputStream> result = new java.util.concurrent.CompletableFuture<>();
        try {
            if (keyOf(path).isEmpty()) {
                throw new FileNotFoundException(path + " is a directory");
            }
            String etag = status instanceof org.apache.hadoop.fs.EtagSource source ? source.getEtag() : null;
            result.complete(new FSDataInputStream(openObject(path, keyOf(path), length, etag)));
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /**
     * Opens an object. A part that a cached manifest names is read with the ETag its generation committed
     * as precondition, so a part replaced since fails with one line instead of returning other bytes.
     */
    private StorkInputStream openObject(Path path, String key, long length, String etag) throws IOException {
        String committedIn = null;
        String objectKey = key;
        Optional<LoadedManifest> covering = coveringManifest(key);
        Optional<SnapshotRef> pinned = SnapshotRef.of(key);
        if (covering.isEmpty() && pinned.isPresent() && !readRaw) {
            covering = manifests.at(pinned.get().root()); // an executor's first read of a pinned generation
        }
        if (covering.isPresent()) {
            ManifestPart part = covering.get().part(covering.get().relative(key));
            if (part == null && covering.get().pinned()) {
                throw new FileNotFoundException(path + ": not a part of generation "
                        + covering.get().manifest().generation() + " of " + pathOf(covering.get().objectRootKey()));
            }
            if (part != null) {
                objectKey = covering.get().objectKeyOf(part);
                if (part.etag() != null) {
                    etag = part.etag();
                    committedIn = "generation " + covering.get().manifest().generation() + " of "
                            + pathOf(covering.get().objectRootKey());
                }
            }
        }
        return StorkInputStream.open(store, ObjectKey.of(bucket, objectKey), path.toString(), readahead, statistics,
                vectoredReadPool, length, etag, committedIn);
    }

    // ---- write ----

    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        return createObject(path, overwrite, true);
    }

    /**
     * Opens the upload of a file. Without overwrite, the existence check (1 HEAD) is skipped when
     * {@code checkExisting} is false or the name is a Stork attempt part (unique by construction), and the
     * PUT itself is conditional where the API honours it, so no concurrent create is ever overwritten.
     */
    FSDataOutputStream createObject(Path path, boolean overwrite, boolean checkExisting) throws IOException {
        Path requested = makeQualified(path);
        String requestedKey = keyOf(requested);
        if (requestedKey.isEmpty()) {
            throw new FileAlreadyExistsException(path + " is the root directory");
        }
        if (!readRaw && SnapshotRef.of(requestedKey).isPresent()) {
            throw new IOException(path + " is in a past generation of a dataset (" + SnapshotRef.of(requestedKey).get()
                    .root() + "), which is read-only: write to the dataset itself");
        }
        // A task attempt's file under Hadoop's classic temporary layout goes straight to its final,
        // attempt-named key: nothing will need renaming (docs/commit-protocol.md, "RDD writes").
        Optional<String> attemptDirectory = PartNames.attemptDirectoryOf(requestedKey)
                .filter(dir -> classicCommit != null || attemptOutputs.isExpected(dir));
        String key = attemptDirectory.isPresent()
                ? PartNames.finalKeyOfAttemptFile(requestedKey).orElse(requestedKey) : requestedKey;
        Path qualified = key.equals(requestedKey) ? requested : pathOf(key);
        boolean unique = PartNames.isAttemptNamed(qualified.getName());
        if (!overwrite && checkExisting && !unique && exists(ObjectKey.of(bucket, key))) {
            throw new FileAlreadyExistsException(path + " already exists");
        }
        PutOptions options = !overwrite && store.supportsConditionalCreate()
                ? PutOptions.defaults().withIfNotExists() : PutOptions.defaults();
        changed(key);
        if (classicCommit != null && qualified.getName().equals(PartNames.MANIFEST)) {
            String directory = key.length() == PartNames.MANIFEST.length() ? ""
                    : key.substring(0, key.length() - PartNames.MANIFEST.length() - 1);
            return new FSDataOutputStream(new SuccessMarkerStream(store.create(ObjectKey.of(bucket, key), options),
                    path.toString(), () -> classicCommit.commitOnSuccessMarker(directory), () -> changed(key)), statistics);
        }
        return new FSDataOutputStream(new StorkOutputStream(store.create(ObjectKey.of(bucket, key), options),
                path.toString(), written -> {
                    changed(key);
                    // What was just written is known without a HEAD: the size and ETag are those of the
                    // upload (a task's statistics and its commit ask for them right after close).
                    statusCache.put(key, new StorkFileStatus(written.length(), blockSize,
                            System.currentTimeMillis(), qualified, written.etag()));
                    attemptDirectory.ifPresent(dir -> attemptOutputs.record(dir,
                            requestedKey.substring(dir.length() + 1),
                            new WrittenFile(qualified, written.length(), written.etag())));
                }), statistics);
    }

    /**
     * A Stork committer announces a task attempt's work directory (Hadoop's classic
     * {@code <out>/_temporary/<n>/_temporary/<attempt>}): files created under it go straight to their
     * final, attempt-named keys. Other attempts' temporary files are written where they are asked to be.
     */
    public void expectAttempt(Path attemptDirectory) {
        attemptOutputs.expect(keyOf(makeQualified(attemptDirectory)));
    }

    /**
     * The files a task attempt wrote through this file system under {@code attemptDirectory}, at the final
     * keys they were redirected to; forgets them. For the attempt's committer, in the attempt's JVM.
     */
    public List<WrittenFile> takeAttemptOutputs(Path attemptDirectory) {
        return attemptOutputs.take(keyOf(makeQualified(attemptDirectory)));
    }

    /** This file system changed {@code key}: drop what the caches say about it. */
    private void changed(String key) {
        statusCache.invalidate(key);
        manifests.invalidate(key);
    }

    private void changedTree(String key) {
        statusCache.invalidateTree(key);
        manifests.invalidate(key);
    }

    @Override
    public org.apache.hadoop.fs.FSDataOutputStreamBuilder createFile(Path path) {
        return new StorkCreateFileBuilder(this, path).create().overwrite(true);
    }

    /** Like create, but the parent must be an existing directory: one more HEAD + LIST for the check. */
    @Override
    public FSDataOutputStream createNonRecursive(Path path, FsPermission permission,
                                                 java.util.EnumSet<org.apache.hadoop.fs.CreateFlag> flags,
                                                 int bufferSize, short replication, long blockSize,
                                                 Progressable progress) throws IOException {
        Path parent = makeQualified(path).getParent();
        if (parent != null && !parent.isRoot()) {
            FileStatus status = getFileStatus(parent);
            if (!status.isDirectory()) {
                throw new ParentNotDirectoryException(parent + " is a file");
            }
        }
        return create(path, permission, flags.contains(org.apache.hadoop.fs.CreateFlag.OVERWRITE), bufferSize,
                replication, blockSize, progress);
    }

    @Override
    public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) throws IOException {
        throw new UnsupportedOperationException("append is not supported: objects cannot be appended to (" + path + ")");
    }

    private boolean exists(ObjectKey key) throws IOException {
        try {
            store.head(key);
            return true;
        } catch (ObjectNotFoundException e) {
            return false;
        }
    }

    // ---- metadata ----

    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        if (key.isEmpty()) {
            return directoryStatus(qualified);
        }
        FileStatus cached = statusCache.get(key);
        if (cached != null) {
            return cached;
        }
        Optional<FileStatus> virtual = classicCommit == null ? Optional.empty() : classicCommit.status(key);
        if (virtual.isPresent()) {
            return virtual.get();
        }
        Optional<LoadedManifest> covering = coveringManifest(key);
        if (covering.isPresent()) {
            return statusFromManifest(qualified, key, covering.get());
        }
        if (!readRaw && SnapshotRef.of(key).filter(ref -> ref.root().equals(key)).isPresent()) {
            manifestFor(key); // a pinned generation that cannot be read fails here, naming why
            return directoryStatus(qualified);
        }
        if (looksLikeDataset(qualified.getName())) {
            if (manifestFor(key).isPresent()) {
                return directoryStatus(qualified);
            }
            return statusByListing(qualified, key);
        }
        try {
            ObjectInfo info = store.head(ObjectKey.of(bucket, key));
            FileStatus status = new StorkFileStatus(info.length(), blockSize,
                    info.lastModified() == null ? 0 : info.lastModified().toEpochMilli(), qualified, info.etag());
            statusCache.put(key, status);
            return status;
        } catch (ObjectNotFoundException e) {
            if (hasEntriesUnder(key)) {
                return directoryStatus(qualified);
            }
            throw new FileNotFoundException("No such file or directory: " + qualified);
        }
    }

    /**
     * A cached manifest of a dataset containing {@code key}, when its answer is the truth for that key:
     * inside a committed dataset the manifest is the namespace (parts, and the directories leading to
     * them). The manifest itself and the internal directory are objects like any other.
     */
    private Optional<LoadedManifest> coveringManifest(String key) {
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

    private FileStatus statusFromManifest(Path qualified, String key, LoadedManifest manifest)
            throws FileNotFoundException {
        String relative = manifest.relative(key);
        if (manifest.isDirectory(relative)) {
            return directoryStatus(qualified);
        }
        ManifestPart part = manifest.part(relative);
        if (part != null) {
            return partStatus(manifest, part);
        }
        throw new FileNotFoundException("No such file or directory: " + qualified + " (not in the manifest of the "
                + "dataset " + pathOf(manifest.rootKey()) + "; fs.stork.read.raw=true shows every object)");
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

    private boolean hasEntriesUnder(String key) throws IOException {
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, key + "/").withPageSize(1))) {
            return it.hasNext();
        }
    }

    private FileStatus fileStatus(Path path, long length, long modified) {
        return new FileStatus(length, false, 1, blockSize, modified, path);
    }

    private FileStatus directoryStatus(Path path) {
        return new FileStatus(0, true, 1, 0, 0, path);
    }

    /**
     * Lists a directory. A directory of a dataset with a Stork manifest (its own, or a dataset root's
     * above it) lists exactly the parts the manifest names, with no LIST: one GET of the manifest, cached.
     * Other directories list normally (LIST with delimiter), but one that holds Stork attempt parts no
     * manifest names fails with {@link IncompleteDatasetException}, unless {@code fs.stork.read.raw}.
     */
    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        Optional<FileStatus[]> virtual = classicCommit == null ? Optional.empty() : classicCommit.list(key);
        if (virtual.isPresent()) {
            return virtual.get();
        }
        Optional<LoadedManifest> manifest = manifestForListing(key);
        if (manifest.isPresent()) {
            return listFromManifest(qualified, key, manifest.get());
        }
        FileStatus[] listed = listObjects(qualified, key);
        return readRaw || isInternal(key) ? listed : checkComplete(qualified, key, listed);
    }

    /** The manifest that governs a directory's status: cached covering one, else the directory's own. */
    private Optional<LoadedManifest> manifestFor(String key) throws IOException {
        if (readRaw || isInternal(key)) {
            return Optional.empty();
        }
        Optional<LoadedManifest> covering = manifests.cachedCovering(key);
        return covering.isPresent() ? covering : manifests.at(key);
    }

    /**
     * The manifest that governs a directory's listing. A listing of the dataset root is where a query
     * starts reading a dataset, so there the cached manifest is revalidated (one conditional GET, 304
     * while unchanged): every query lists the generation current when it started, and its tasks read
     * that generation's parts, which retention keeps readable after later commits.
     */
    private Optional<LoadedManifest> manifestForListing(String key) throws IOException {
        if (readRaw || isInternal(key)) {
            return Optional.empty();
        }
        Optional<LoadedManifest> covering = manifests.cachedCovering(key);
        if (covering.isPresent() && (!covering.get().rootKey().equals(key) || covering.get().pinned())) {
            return covering; // below the root, or a past generation (immutable)
        }
        return covering.isPresent() ? manifests.current(key) : manifests.at(key);
    }

    /** Stork's own bookkeeping inside a dataset ({@code _stork/}): plain objects, never a dataset. */
    private static boolean isInternal(String key) {
        return key.equals(PartNames.INTERNAL_DIRECTORY) || key.startsWith(PartNames.INTERNAL_DIRECTORY + "/")
                || key.endsWith("/" + PartNames.INTERNAL_DIRECTORY) || key.contains("/" + PartNames.INTERNAL_DIRECTORY + "/");
    }

    private FileStatus[] listFromManifest(Path qualified, String key, LoadedManifest manifest) throws IOException {
        String relative = manifest.relative(key);
        if (!manifest.isDirectory(relative)) {
            // Not a directory of the dataset: a part (lists as itself) or nothing.
            FileStatus status = getFileStatus(qualified);
            return status.isFile() ? new FileStatus[] {status} : new FileStatus[0];
        }
        List<FileStatus> result = new ArrayList<>();
        for (String directory : manifest.subdirectories(relative)) {
            result.add(directoryStatus(pathOf(manifest.rootKey().isEmpty() ? directory
                    : manifest.rootKey() + "/" + directory)));
        }
        for (ManifestPart part : manifest.files(relative)) {
            result.add(partStatus(manifest, part));
        }
        return result.toArray(new FileStatus[0]);
    }

    private FileStatus partStatus(LoadedManifest manifest, ManifestPart part) {
        return new StorkFileStatus(part.length(), blockSize, part.modifiedAt(), pathOf(manifest.keyOf(part)),
                part.etag());
    }

    /**
     * A plain listing that shows attempt parts: either a partition directory of a dataset whose root
     * manifest is above it (filter by that manifest), or the output of a job that never committed.
     */
    private FileStatus[] checkComplete(Path qualified, String key, FileStatus[] listed) throws IOException {
        for (FileStatus status : listed) {
            if (status.isFile() && PartNames.isAttemptNamed(status.getPath().getName())) {
                // "No manifest" may have been cached before the first commit: ask the store again.
                Optional<LoadedManifest> own = manifests.current(key);
                if (own.isPresent()) {
                    return listFromManifest(qualified, key, own.get());
                }
                Optional<LoadedManifest> covering = key.isEmpty() ? Optional.empty()
                        : manifests.findCovering(key);
                if (covering.isPresent()) {
                    return listFromManifest(qualified, key, covering.get());
                }
                throw new IncompleteDatasetException(qualified.toString(), status.getPath().getName());
            }
        }
        return listed;
    }

    private FileStatus[] listObjects(Path qualified, String key) throws IOException {
        String prefix = key.isEmpty() ? "" : key + "/";
        List<FileStatus> result = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, prefix).withDelimiter("/"))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                if (entry.name().equals(prefix)) {
                    continue; // the directory's own marker
                }
                if (entry instanceof ListEntry.ListedObject object) {
                    result.add(fileStatus(pathOf(object.name()), object.length(),
                            object.lastModified() == null ? 0 : object.lastModified().toEpochMilli()));
                } else {
                    result.add(directoryStatus(pathOf(entry.name())));
                }
            }
        }
        if (result.isEmpty()) {
            FileStatus status = getFileStatus(qualified);
            return status.isFile() ? new FileStatus[] {status} : new FileStatus[0];
        }
        return result.toArray(new FileStatus[0]);
    }

    /**
     * Lists a directory page by page as the caller iterates (one LIST per 1,000 entries); an empty result
     * is resolved as listStatus does (a file lists as itself; a missing path fails). The first page is
     * fetched before returning, so that a missing path fails here, as the API requires.
     */
    @Override
    public org.apache.hadoop.fs.RemoteIterator<FileStatus> listStatusIterator(Path path) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        if (!readRaw || (classicCommit != null && ClassicCommitEmulation.inTemporaryTree(key))) {
            // A dataset (manifest) is listed whole from the manifest; attempt parts must be checked
            // against one before anything is returned, so the guarded path lists eagerly.
            return arrayIterator(listStatus(qualified));
        }
        String prefix = key.isEmpty() ? "" : key + "/";
        StoreIterator<ListEntry> pages = store.list(ListRequest.of(bucket, prefix).withDelimiter("/"));
        org.apache.hadoop.fs.RemoteIterator<FileStatus> iterator = new org.apache.hadoop.fs.RemoteIterator<>() {
            private FileStatus next;
            private boolean any;
            private java.util.Iterator<FileStatus> fallback;

            @Override
            public boolean hasNext() throws IOException {
                if (fallback != null) {
                    return fallback.hasNext();
                }
                while (next == null && pages.hasNext()) {
                    ListEntry entry = pages.next();
                    if (entry.name().equals(prefix)) {
                        continue; // the directory's own marker
                    }
                    next = entry instanceof ListEntry.ListedObject object
                            ? fileStatus(pathOf(object.name()), object.length(),
                                    object.lastModified() == null ? 0 : object.lastModified().toEpochMilli())
                            : directoryStatus(pathOf(entry.name()));
                }
                if (next == null && !any) {
                    FileStatus status = getFileStatus(qualified);
                    fallback = (status.isFile() ? List.of(status) : List.<FileStatus>of()).iterator();
                    return fallback.hasNext();
                }
                return next != null;
            }

            @Override
            public FileStatus next() throws IOException {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                if (fallback != null) {
                    return fallback.next();
                }
                any = true;
                FileStatus result = next;
                next = null;
                return result;
            }
        };
        iterator.hasNext();
        return iterator;
    }

    private static <T> org.apache.hadoop.fs.RemoteIterator<T> arrayIterator(T[] items) {
        java.util.Iterator<T> it = java.util.Arrays.asList(items).iterator();
        return new org.apache.hadoop.fs.RemoteIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public T next() {
                return it.next();
            }
        };
    }

    /**
     * A recursive listing is one flat LIST of the prefix (1 call per 1,000 files, however deep the tree),
     * fetched page by page as the caller iterates. Directory markers are not files and are skipped.
     */
    @Override
    public org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> listFiles(Path path,
            boolean recursive) throws IOException {
        if (!recursive) {
            return super.listFiles(path, false);
        }
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        Optional<LoadedManifest> manifest = manifestForListing(key);
        if (manifest.isPresent() && manifest.get().isDirectory(manifest.get().relative(key))) {
            String relative = manifest.get().relative(key);
            List<org.apache.hadoop.fs.LocatedFileStatus> parts = new ArrayList<>();
            for (ManifestPart part : manifest.get().manifest().parts()) {
                if (relative.isEmpty() || part.path().startsWith(relative + "/")) {
                    parts.add(new org.apache.hadoop.fs.LocatedFileStatus(partStatus(manifest.get(), part), null));
                }
            }
            return arrayIterator(parts.toArray(new org.apache.hadoop.fs.LocatedFileStatus[0]));
        }
        String prefix = key.isEmpty() ? "" : key + "/";
        StoreIterator<ListEntry> pages = store.list(ListRequest.of(bucket, prefix));
        if (!pages.hasNext()) {
            FileStatus status = getFileStatus(qualified); // a file, an empty directory, or not found
            java.util.List<org.apache.hadoop.fs.LocatedFileStatus> single = status.isFile()
                    ? List.of(new org.apache.hadoop.fs.LocatedFileStatus(status, null)) : List.of();
            java.util.Iterator<org.apache.hadoop.fs.LocatedFileStatus> it = single.iterator();
            return new org.apache.hadoop.fs.RemoteIterator<>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public org.apache.hadoop.fs.LocatedFileStatus next() {
                    return it.next();
                }
            };
        }
        return new org.apache.hadoop.fs.RemoteIterator<>() {
            private org.apache.hadoop.fs.LocatedFileStatus next;

            @Override
            public boolean hasNext() throws IOException {
                while (next == null && pages.hasNext()) {
                    ListEntry entry = pages.next();
                    if (entry instanceof ListEntry.ListedObject object && !object.name().endsWith("/")) {
                        next = new org.apache.hadoop.fs.LocatedFileStatus(fileStatus(pathOf(object.name()),
                                object.length(), object.lastModified() == null ? 0
                                        : object.lastModified().toEpochMilli()), null);
                    }
                }
                return next != null;
            }

            @Override
            public org.apache.hadoop.fs.LocatedFileStatus next() throws IOException {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                org.apache.hadoop.fs.LocatedFileStatus result = next;
                next = null;
                return result;
            }
        };
    }

    /**
     * exists(): a directory with a Stork manifest costs one GET (which a reader's listing then reuses);
     * anything else one GET of the absent manifest plus one LIST that tells a file, a directory and
     * nothing apart. An output path announced through {@link OutputIntents} skips the manifest: its
     * writer needs only the LIST.
     */
    @Override
    public boolean exists(Path path) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        if (key.isEmpty()) {
            return true;
        }
        if (statusCache.get(key) != null) {
            return true;
        }
        if (classicCommit != null) {
            try {
                if (classicCommit.status(key).isPresent()) {
                    return true;
                }
            } catch (FileNotFoundException e) {
                return false;
            }
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
        boolean announced = OutputIntents.isAnnounced(qualified);
        if (!announced && manifestFor(key).isPresent()) {
            return true;
        }
        boolean exists;
        try {
            statusByListing(qualified, key);
            exists = true;
        } catch (FileNotFoundException e) {
            exists = false;
        }
        OutputIntents.recordExistence(qualified, exists);
        return exists;
    }

    /**
     * A file, a directory or nothing, told apart by one LIST of the key as prefix with "/" as delimiter:
     * the key itself, or "key/", sorts first among the entries of its kind.
     */
    private FileStatus statusByListing(Path qualified, String key) throws IOException {
        String directoryPrefix = key + "/";
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, key).withDelimiter("/"))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                if (entry.name().equals(key) && entry instanceof ListEntry.ListedObject object) {
                    FileStatus status = new StorkFileStatus(object.length(), blockSize,
                            object.lastModified() == null ? 0 : object.lastModified().toEpochMilli(), qualified,
                            object.etag());
                    statusCache.put(key, status);
                    return status;
                }
                if (entry.name().equals(directoryPrefix)) {
                    return directoryStatus(qualified);
                }
                if (entry.name().compareTo(directoryPrefix) > 0) {
                    break;
                }
            }
        }
        throw new FileNotFoundException("No such file or directory: " + qualified);
    }

    @Override
    public boolean hasPathCapability(Path path, String capability) throws IOException {
        switch (capability.toLowerCase(java.util.Locale.ROOT)) {
            case StorkCapabilities.CONDITIONAL_CREATE:
                return store.supportsConditionalCreate();
            case StorkCapabilities.ATOMIC_CREATE:
                return store.conditionalCreateIsAtomic();
            case StorkCapabilities.MANIFEST_LISTING:
            case org.apache.hadoop.fs.CommonPathCapabilities.ETAGS_AVAILABLE:
            case org.apache.hadoop.fs.CommonPathCapabilities.BULK_DELETE:
                return true;
            default:
                return super.hasPathCapability(path, capability);
        }
    }

    /** Bulk delete in pages of 1,000 keys, one bulk call per page (docs/hadoop-filesystem.md). */
    @Override
    public org.apache.hadoop.fs.BulkDelete createBulkDelete(Path base) throws IOException {
        Path qualifiedBase = makeQualified(base);
        return new StorkBulkDelete(qualifiedBase, paths -> {
            List<String> keys = new ArrayList<>(paths.size());
            for (Path p : paths) {
                String key = keyOf(p);
                changed(key);
                keys.add(key);
            }
            var result = store.deleteAll(bucket, keys);
            List<java.util.Map.Entry<Path, String>> failures = new ArrayList<>();
            for (String failed : result.failedKeys()) {
                failures.add(java.util.Map.entry(pathOf(failed), String.valueOf(result.failures().get(failed))));
            }
            return failures;
        }, ioStatistics);
    }

    @Override
    public boolean mkdirs(Path path, FsPermission permission) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        if (key.isEmpty() || (classicCommit != null && classicCommit.mkdirs(key).isPresent())) {
            return true;
        }
        try {
            FileStatus status = getFileStatus(qualified);
            if (status.isDirectory()) {
                return true;
            }
            throw new FileAlreadyExistsException(qualified + " is a file");
        } catch (FileNotFoundException absent) {
            // create it below
        }
        for (Path parent = qualified.getParent(); parent != null && !parent.isRoot(); parent = parent.getParent()) {
            if (exists(objectKey(parent))) {
                throw new ParentNotDirectoryException(parent + " is a file, so " + qualified + " cannot be a directory");
            }
        }
        // An empty directory is a zero-byte marker "<key>/"; a directory with entries needs none.
        changed(key);
        store.put(ObjectKey.of(bucket, key + "/"), PutBody.of(new byte[0]), PutOptions.defaults());
        return true;
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        changedTree(key);
        if (classicCommit != null) {
            IOException[] failure = {null};
            Optional<Boolean> virtual = classicCommit.delete(key, keys -> {
                try {
                    deleteKeys(qualified, keys);
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
            if (virtual.isPresent()) {
                return virtual.get();
            }
        }
        if (!key.isEmpty() && exists(ObjectKey.of(bucket, key))) {
            store.delete(ObjectKey.of(bucket, key));
            keepParentDirectory(qualified);
            return true;
        }
        String prefix = key.isEmpty() ? "" : key + "/";
        List<String> keys = new ArrayList<>();
        // Two keys tell an empty directory (its marker only) from a non-empty one.
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, prefix).withPageSize(2))) {
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
            keys = allKeysUnder(prefix);
        }
        deleteKeys(qualified, keys);
        if (!key.isEmpty()) {
            keepParentDirectory(qualified);
        }
        return true;
    }

    private List<String> allKeysUnder(String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, prefix))) {
            while (it.hasNext()) {
                keys.add(it.next().name());
            }
        }
        return keys;
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
        String parentKey = keyOf(parent);
        if (!hasEntriesUnder(parentKey)) {
            store.put(ObjectKey.of(bucket, parentKey + "/"), PutBody.of(new byte[0]), PutOptions.defaults());
        }
    }

    private void deleteKeys(Path path, List<String> keys) throws IOException {
        var result = store.deleteAll(bucket, keys);
        if (!result.allDeleted()) {
            throw new IOException("delete of " + path + " left " + result.failures().size() + " objects, e.g. "
                    + result.failedKeys().get(0) + ": " + result.failures().get(result.failedKeys().get(0)));
        }
    }

    @Override
    public boolean rename(Path source, Path destination) throws IOException {
        Path src = makeQualified(source);
        Path dst = makeQualified(destination);
        String srcKey = keyOf(src);
        if (srcKey.isEmpty()) {
            return false;
        }
        if (classicCommit != null) {
            Optional<Boolean> virtual = classicCommit.rename(srcKey, keyOf(dst));
            if (virtual.isPresent()) {
                return virtual.get();
            }
        }
        FileStatus srcStatus;
        try {
            srcStatus = getFileStatus(src);
        } catch (FileNotFoundException e) {
            return false;
        }
        if (src.equals(dst)) {
            return srcStatus.isFile();
        }
        FileStatus dstStatus = null;
        try {
            dstStatus = getFileStatus(dst);
        } catch (FileNotFoundException absent) {
            // the usual case
        }
        if (dstStatus != null && dstStatus.isDirectory()) {
            dst = new Path(dst, src.getName());
            try {
                getFileStatus(dst);
                return false;
            } catch (FileNotFoundException absent) {
                // moving into the directory
            }
        } else if (dstStatus != null) {
            return false;
        } else {
            Path parent = dst.getParent();
            if (parent != null && !parent.isRoot()) {
                try {
                    if (!getFileStatus(parent).isDirectory()) {
                        return false;
                    }
                } catch (FileNotFoundException noParent) {
                    return false;
                }
            }
        }
        String dstKey = keyOf(dst);
        changedTree(srcKey);
        changedTree(dstKey);
        if (srcStatus.isFile()) {
            store.copy(ObjectKey.of(bucket, srcKey), ObjectKey.of(bucket, dstKey));
            store.delete(ObjectKey.of(bucket, srcKey));
            keepParentDirectory(src);
            return true;
        }
        if ((dstKey + "/").startsWith(srcKey + "/")) {
            throw new IOException("cannot rename " + src + " into its own subtree " + dst);
        }
        // A directory: copy every object, then delete the sources. Not atomic (docs/hadoop-filesystem.md).
        List<String> sources = allKeysUnder(srcKey + "/");
        for (String key : sources) {
            store.copy(ObjectKey.of(bucket, key), ObjectKey.of(bucket, dstKey + key.substring(srcKey.length())));
        }
        if (!sources.isEmpty()) {
            deleteKeys(src, sources);
        }
        keepParentDirectory(src);
        return true;
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            if (vectoredReadPool != null) {
                vectoredReadPool.shutdownNow();
            }
            if (store != null) {
                store.close();
            }
        }
    }

    /** REST calls by type, failures and bytes, live (see {@link StoreIOStatistics}). */
    @Override
    public org.apache.hadoop.fs.statistics.IOStatistics getIOStatistics() {
        return ioStatistics;
    }

    @Override
    public org.apache.hadoop.fs.StorageStatistics getStorageStatistics() {
        return new org.apache.hadoop.fs.statistics.impl.StorageStatisticsFromIOStatistics("stork", SCHEME, ioStatistics);
    }

    @Override
    public String getCanonicalServiceName() {
        return null; // no delegation tokens
    }
}
