package io.stork.hadoop;

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
        if (keyOf(path).isEmpty()) {
            throw new FileNotFoundException(path + " is a directory");
        }
        return new FSDataInputStream(StorkInputStream.open(store, objectKey(path), path.toString(), readahead,
                statistics, vectoredReadPool, -1, null));
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
            result.complete(new FSDataInputStream(StorkInputStream.open(store, objectKey(path), path.toString(),
                    readahead, statistics, vectoredReadPool, length, null)));
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    // ---- write ----

    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        String key = keyOf(path);
        if (key.isEmpty()) {
            throw new FileAlreadyExistsException(path + " is the root directory");
        }
        if (!overwrite && exists(ObjectKey.of(bucket, key))) {
            throw new FileAlreadyExistsException(path + " already exists");
        }
        statusCache.invalidate(key);
        return new FSDataOutputStream(new StorkOutputStream(store.create(ObjectKey.of(bucket, key),
                PutOptions.defaults()), path.toString(), () -> statusCache.invalidate(key)), statistics);
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
        try {
            ObjectInfo info = store.head(ObjectKey.of(bucket, key));
            FileStatus status = fileStatus(qualified, info.length(),
                    info.lastModified() == null ? 0 : info.lastModified().toEpochMilli());
            statusCache.put(key, status);
            return status;
        } catch (ObjectNotFoundException e) {
            if (hasEntriesUnder(key)) {
                return directoryStatus(qualified);
            }
            throw new FileNotFoundException("No such file or directory: " + qualified);
        }
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

    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
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

    @Override
    public boolean mkdirs(Path path, FsPermission permission) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        if (key.isEmpty()) {
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
        store.put(ObjectKey.of(bucket, key + "/"), PutBody.of(new byte[0]), PutOptions.defaults());
        return true;
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        Path qualified = makeQualified(path);
        String key = keyOf(qualified);
        statusCache.invalidateTree(key);
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
        statusCache.invalidateTree(srcKey);
        statusCache.invalidateTree(dstKey);
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
