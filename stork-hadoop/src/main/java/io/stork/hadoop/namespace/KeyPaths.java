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
        if (plain(trimmed) && plain(bucket)) {
            // Listing a dataset makes a path per part: for the usual names, one parse of the URI instead of
            // Path's quoting and checks, the same Path either way (KeyPathsTest).
            return new Path(java.net.URI.create(SCHEME + "://" + bucket + "/" + trimmed));
        }
        return new Path(SCHEME, bucket, "/" + trimmed);
    }

    /** Only characters a URI takes as they are, no empty or dot segments. */
    private static boolean plain(String s) {
        if (s.isEmpty() || s.startsWith(".") || s.contains("//") || s.contains("/.")) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.' || c == '=' || c == '/')) {
                return false;
            }
        }
        return true;
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
                part.etag(), manifest, part, -1, 0);
    }

    /** As {@link #part}, for a listing: the part's path is made once per cached generation ({@link PartPaths}). */
    public FileStatus listedPart(LoadedManifest manifest, ManifestPart part) {
        PartPaths.Listed listed = partPaths(manifest).of(part, manifest, this);
        return new StorkFileStatus(part.length(), blockSize, part.modifiedAt(), listed.path(), part.etag(), manifest,
                part, listed.ordinal(), 0);
    }

    /** The statuses of the parts directly in a directory of the dataset (relative key), in manifest order. */
    public void listedParts(LoadedManifest manifest, String relativeDirectory, java.util.List<? super FileStatus> into) {
        PartPaths partPaths = partPaths(manifest);
        for (int ordinal : partPaths.ordinalsIn(relativeDirectory)) {
            into.add(listedPart(manifest, partPaths, ordinal));
        }
    }

    /** Positions of the parts directly in a directory of the dataset (relative key), in manifest order. */
    public int[] ordinalsIn(LoadedManifest manifest, String relativeDirectory) {
        return partPaths(manifest).ordinalsIn(relativeDirectory);
    }

    /** The status of the manifest's part at a position of its part list. */
    public FileStatus listedPart(LoadedManifest manifest, int ordinal) {
        return listedPart(manifest, partPaths(manifest), ordinal);
    }

    private FileStatus listedPart(LoadedManifest manifest, PartPaths partPaths, int ordinal) {
        ManifestPart part = partPaths.part(ordinal);
        return new StorkFileStatus(part.length(), blockSize, part.modifiedAt(), partPaths.path(ordinal), part.etag(),
                manifest, part, ordinal, 0);
    }

    private PartPaths partPaths(LoadedManifest manifest) {
        return (PartPaths) manifest.derived().computeIfAbsent(PartPaths.NAME, k -> PartPaths.of(manifest, this));
    }
}
