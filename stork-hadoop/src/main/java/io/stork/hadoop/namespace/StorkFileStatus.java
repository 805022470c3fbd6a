package io.stork.hadoop.namespace;

import io.stork.manifest.ManifestPart;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;

/**
 * A file's status with the store's entity tag, where the call that produced it returned one, and, for a
 * part listed from a dataset's manifest, that manifest and part (so readers find what the manifest says of
 * the part, its statistics, without looking the path up again).
 *
 * <p>It is a {@link LocatedFileStatus} whose one block location is made only when asked: Spark keeps
 * located statuses as they are, where it would otherwise ask the file system for each file's locations
 * and copy the status, losing the ETag.
 */
public final class StorkFileStatus extends LocatedFileStatus implements EtagSource {

    private static final String[] NAMES = {"localhost:9866"};
    private static final String[] HOSTS = {"localhost"};

    private final String etag;
    private final transient LoadedManifest manifest;
    private final transient ManifestPart part;
    private final int ordinal;
    private final int tail;

    public StorkFileStatus(long length, long blockSize, long modified, Path path, String etag) {
        this(length, blockSize, modified, path, etag, null, null, -1, 0);
    }

    /** A file this process has just written, with the tail its reader needs first (0 unknown). */
    public static StorkFileStatus written(long length, long blockSize, long modified, Path path, String etag,
                                          int tail) {
        return new StorkFileStatus(length, blockSize, modified, path, etag, null, null, -1, tail);
    }

    private static final org.apache.hadoop.fs.permission.FsPermission FILE_PERMISSION =
            org.apache.hadoop.fs.permission.FsPermission.createImmutable((short) 0666);

    StorkFileStatus(long length, long blockSize, long modified, Path path, String etag, LoadedManifest manifest,
                    ManifestPart part, int ordinal, int tail) {
        // One permission object for every file: Hadoop makes a new default per status otherwise, which shows
        // when a million parts are listed per query.
        super(length, false, 1, blockSize, modified, 0, FILE_PERMISSION, null, null, null, path, false, false, false, null);
        this.etag = etag;
        this.manifest = manifest;
        this.part = part;
        this.ordinal = ordinal;
        this.tail = part != null ? part.tail() : tail;
    }

    /** Bytes at the end a reader needs first (a Parquet footer with its length and magic); 0 unknown. */
    public int tail() {
        return tail;
    }

    @Override
    public String getEtag() {
        return etag;
    }

    /** The manifest this part was listed from, or null (not listed from a manifest). */
    public LoadedManifest manifest() {
        return manifest;
    }

    /** The part as the manifest names it, or null. */
    public ManifestPart part() {
        return part;
    }

    /** The part's position in the manifest's part list, or -1 (not known). */
    public int ordinal() {
        return ordinal;
    }

    /** One location for the whole object, as {@code FileSystem.getFileBlockLocations} gives by default. */
    @Override
    public BlockLocation[] getBlockLocations() {
        return getLen() == 0 ? new BlockLocation[0]
                : new BlockLocation[] {new BlockLocation(NAMES, HOSTS, 0, getLen())};
    }

    // FileStatus equality is by path; the ETag adds no identity.
    @Override
    public boolean equals(Object o) {
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
