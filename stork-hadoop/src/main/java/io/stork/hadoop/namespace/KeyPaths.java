package io.stork.hadoop.namespace;

import io.stork.manifest.ManifestPart;
import java.time.Instant;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** Object keys of one bucket as Hadoop paths and file statuses ({@code stork://<bucket>/<key>}). */
public record KeyPaths(String bucket, long blockSize) {

    public static final String SCHEME = "stork";

    /** The path of a key ("" is the root; a trailing slash, a directory marker's, is dropped). */
    public Path pathOf(String key) {
        String trimmed = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        return new Path(SCHEME, bucket, "/" + trimmed);
    }

    /** The key of a qualified path: its path without the leading slash; "" for the root. */
    public static String keyOf(Path qualified) {
        String p = qualified.toUri().getPath();
        return p.startsWith("/") ? p.substring(1) : p;
    }

    public FileStatus file(Path path, long length, long modified) {
        return new FileStatus(length, false, 1, blockSize, modified, path);
    }

    public FileStatus file(Path path, long length, Instant modified, String etag) {
        return new StorkFileStatus(length, blockSize, modified == null ? 0 : modified.toEpochMilli(), path, etag);
    }

    public FileStatus directory(Path path) {
        return new FileStatus(0, true, 1, 0, 0, path);
    }

    /** A part as a dataset's manifest names it: size, ETag and time from the manifest, no call. */
    public FileStatus part(LoadedManifest manifest, ManifestPart part) {
        return new StorkFileStatus(part.length(), blockSize, part.modifiedAt(), pathOf(manifest.keyOf(part)),
                part.etag());
    }
}
