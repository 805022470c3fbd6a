package io.stork.hadoop;

import io.stork.hadoop.commit.CommitIntegration;
import io.stork.hadoop.io.StorkInputStream;
import io.stork.hadoop.namespace.DatasetManifests;
import io.stork.hadoop.namespace.DirectoryOperations;
import io.stork.hadoop.namespace.KeyPaths;
import io.stork.hadoop.namespace.Listings;
import io.stork.hadoop.namespace.Namespace;
import io.stork.hadoop.namespace.StatusCache;
import io.stork.manifest.PartNames;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;

/**
 * A Hadoop {@link FileSystem} over object storage, {@code stork://<bucket>/<key>}, through the S3 or the
 * Swift API, or in memory for tests (per bucket: {@code fs.stork.bucket.<bucket>.api}). A thin adapter: what is at a key is the
 * {@link Namespace}'s answer (datasets read through their manifests), listings are {@link Listings}',
 * directories are emulated by {@link DirectoryOperations}, commit paths are the {@link CommitIntegration}'s,
 * and streams live in {@code io}. See docs/hadoop-filesystem.md for the cost of each call.
 */
public class StorkFileSystem extends FileSystem
        implements org.apache.hadoop.fs.statistics.IOStatisticsSource, OutputIntents.Announceable {

    public static final String SCHEME = KeyPaths.SCHEME;
    private static final long DEFAULT_READAHEAD = 1024 * 1024;
    private static final long DEFAULT_BLOCK_SIZE = 128L * 1024 * 1024;

    private URI uri;
    private String bucket;
    private ObjectStore store;
    private KeyPaths paths;
    private Path workingDirectory;
    private io.stork.hadoop.io.ReadPolicy readPolicy;
    private boolean exactTails;
    private io.stork.hadoop.io.VectoredReadPool vectoredReads;
    private Namespace namespace;
    private Listings listings;
    private DirectoryOperations directories;
    private ObjectCreation creation;
    private final OutputIntents outputIntents = new OutputIntents();
    private CommitIntegration commits;
    private boolean readRaw;
    private IOStatistics ioStatistics;

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
        store = ObjectStoreFactory.create(config, io.stork.hadoop.io.ThreadIOStatistics.cacheReads());
        paths = new KeyPaths(bucket, config.getBytes(StorkConfig.BLOCK_SIZE, DEFAULT_BLOCK_SIZE));
        readPolicy = new io.stork.hadoop.io.ReadPolicy(config.getBytes(StorkConfig.READAHEAD_RANGE, DEFAULT_READAHEAD),
                config.getBytes(StorkConfig.READ_WHOLE_OBJECT_SIZE, io.stork.hadoop.io.ReadPolicy.DEFAULT_WHOLE_OBJECT_LIMIT),
                (int) config.getBytes(StorkConfig.READ_TAIL_SIZE, io.stork.hadoop.io.ReadPolicy.DEFAULT_TAIL_SIZE));
        workingDirectory = makeQualified(new Path("/user", UserGroupInformation.getCurrentUser().getShortUserName()));
        ioStatistics = StoreIOStatistics.of(store);
        readRaw = config.getBoolean(StorkConfig.READ_RAW, false);
        exactTails = config.getBoolean(StorkConfig.READ_TAIL_EXACT, true);
        DatasetManifests manifests = new DatasetManifests(store, bucket,
                config.getInt(StorkConfig.MANIFEST_CACHE_SIZE, 100),
                config.getDuration(StorkConfig.MANIFEST_CACHE_TTL, Duration.ofMinutes(1)),
                config.commitSettings().retention());
        commits = CommitIntegration.create(store, bucket, manifests, new CommitIntegration.StatusFactory() {
            @Override
            public FileStatus file(String key, long length) {
                return paths.file(paths.pathOf(key), length, 0);
            }

            @Override
            public FileStatus directory(String key) {
                return paths.directory(paths.pathOf(key));
            }
        }, config.commitSettings(), config.getBoolean(StorkConfig.CLASSIC_COMMITTER_EMULATION, true));
        namespace = new Namespace(store, paths, manifests, new StatusCache(
                config.getInt(StorkConfig.STATUS_CACHE_SIZE, 10_000),
                config.getDuration(StorkConfig.STATUS_CACHE_TTL, Duration.ofMinutes(5))), commits, readRaw);
        listings = new Listings(namespace);
        directories = new DirectoryOperations(namespace, listings);
        creation = new ObjectCreation(store, paths, namespace, commits, readRaw,
                io.stork.hadoop.io.StorkOutputStream.tailMeasures(StorkFileSystem.class.getClassLoader()));
        int threads = config.getInt(StorkConfig.VECTORED_READ_THREADS, 8);
        vectoredReads = new io.stork.hadoop.io.VectoredReadPool(bucket, threads);
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public URI getUri() {
        return uri;
    }

    /** Output paths a Stork commit protocol announced to this instance. */
    @Override
    public OutputIntents outputIntents() {
        return outputIntents;
    }

    /** The store client, for the layers above (and tests) that need its statistics. */
    public ObjectStore store() {
        return store;
    }

    @Override
    public long getDefaultBlockSize() {
        return paths.blockSize();
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
        return KeyPaths.keyOf(makeQualified(path));
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
                namespace.manifestAbsent(key); // a committer just looked for one: the cache need not ask again
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
    protected CompletableFuture<FSDataInputStream> openFileWithOptions(Path path,
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
        CompletableFuture<FSDataInputStream> result = new CompletableFuture<>();
        try {
            if (keyOf(path).isEmpty()) {
                throw new FileNotFoundException(path + " is a directory");
            }
            String etag = status instanceof EtagSource source ? source.getEtag() : null;
            result.complete(new FSDataInputStream(openObject(path, keyOf(path), length, etag)));
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    private StorkInputStream openObject(Path path, String key, long length, String etag) throws IOException {
        Namespace.ReadTarget target = namespace.readTarget(path, key, etag);
        return StorkInputStream.open(store, ObjectKey.of(bucket, target.objectKey()), path.toString(),
                readPolicy.forPart(target.tail(), exactTails),
                statistics, vectoredReads.executor(), length >= 0 ? length : target.length(), target.etag(), target.committedIn());
    }

    // ---- write ----

    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        return createObject(path, overwrite, true);
    }

    /** See {@link ObjectCreation#create}. */
    FSDataOutputStream createObject(Path path, boolean overwrite, boolean checkExisting) throws IOException {
        return creation.create(makeQualified(path), path.toString(), overwrite, checkExisting, statistics);
    }

    @Override
    public org.apache.hadoop.fs.FSDataOutputStreamBuilder createFile(Path path) {
        return new StorkCreateFileBuilder(this, path).create().overwrite(true);
    }

    /** Like create, but the parent must be an existing directory: one more HEAD + LIST for the check. */
    @Override
    public FSDataOutputStream createNonRecursive(Path path, FsPermission permission, EnumSet<CreateFlag> flags,
                                                 int bufferSize, short replication, long blockSize,
                                                 Progressable progress) throws IOException {
        Path parent = makeQualified(path).getParent();
        if (parent != null && !parent.isRoot()) {
            FileStatus status = getFileStatus(parent);
            if (!status.isDirectory()) {
                throw new ParentNotDirectoryException(parent + " is a file");
            }
        }
        return create(path, permission, flags.contains(CreateFlag.OVERWRITE), bufferSize, replication, blockSize,
                progress);
    }

    @Override
    public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) throws IOException {
        throw new UnsupportedOperationException("append is not supported: objects cannot be appended to (" + path + ")");
    }

    // ---- namespace ----

    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        Path qualified = makeQualified(path);
        return namespace.status(qualified, KeyPaths.keyOf(qualified));
    }

    /** See {@link Namespace#exists}; an output path announced through {@link OutputIntents} costs one LIST. */
    @Override
    public boolean exists(Path path) throws IOException {
        Path qualified = makeQualified(path);
        String key = KeyPaths.keyOf(qualified);
        return namespace.exists(qualified, key, outputIntents.isAnnounced(qualified), exists -> {
            outputIntents.recordExistence(qualified, exists);
            commits.existenceChecked(key, exists);
        });
    }

    /** For committers ({@link CommitIntegration}): what this instance's checks learnt about commit paths. */
    public CommitIntegration commitIntegration() {
        return commits;
    }

    /** For data skipping and committers ({@link DatasetAccess}): datasets as their manifests name them. */
    public DatasetAccess datasets() {
        return new DatasetAccess(paths, namespace, store, this::keyOf);
    }

    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        Path qualified = makeQualified(path);
        return listings.list(qualified, KeyPaths.keyOf(qualified));
    }

    @Override
    public RemoteIterator<FileStatus> listStatusIterator(Path path) throws IOException {
        Path qualified = makeQualified(path);
        return listings.iterator(qualified, KeyPaths.keyOf(qualified));
    }

    @Override
    public RemoteIterator<LocatedFileStatus> listFiles(Path path, boolean recursive) throws IOException {
        if (!recursive) {
            return super.listFiles(path, false);
        }
        Path qualified = makeQualified(path);
        return listings.files(qualified, KeyPaths.keyOf(qualified));
    }

    @Override
    public boolean mkdirs(Path path, FsPermission permission) throws IOException {
        Path qualified = makeQualified(path);
        return directories.mkdirs(qualified, KeyPaths.keyOf(qualified));
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        Path qualified = makeQualified(path);
        return directories.delete(qualified, KeyPaths.keyOf(qualified), recursive);
    }

    @Override
    public boolean rename(Path source, Path destination) throws IOException {
        return directories.rename(makeQualified(source), makeQualified(destination));
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
        return new StorkBulkDelete(makeQualified(base), toDelete -> {
            List<String> keys = new ArrayList<>(toDelete.size());
            for (Path p : toDelete) {
                String key = keyOf(p);
                namespace.changed(key);
                keys.add(key);
            }
            var result = store.deleteAll(bucket, keys);
            List<Map.Entry<Path, String>> failures = new ArrayList<>();
            for (String failed : result.failedKeys()) {
                failures.add(Map.entry(paths.pathOf(failed), String.valueOf(result.failures().get(failed))));
            }
            return failures;
        }, ioStatistics);
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            if (vectoredReads != null) {
                vectoredReads.close();
            }
            if (store != null) {
                store.close();
            }
        }
    }

    /** REST calls by type, failures and bytes, live (see {@link StoreIOStatistics}). */
    @Override
    public IOStatistics getIOStatistics() {
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
