package io.stork.hadoop.namespace;

import io.stork.manifest.ManifestPart;
import java.net.URI;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * The paths of one cached manifest's parts, each made once per generation when first asked for instead of
 * once per listing: a dataset of a million parts may be listed by every query over it, and making a Hadoop
 * path parses a URI. Not made at all for parts no listing returns (a manifest file index lists only what
 * survives pruning and skipping). Each part's path knows its directory's path, so Spark grouping files by
 * directory ({@code getParent()} per file) does not parse again either.
 */
final class PartPaths {

    static final String NAME = "io.stork.hadoop.partPaths";

    /** Each part's path, by its position in the manifest's part list; null until first asked for. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Path> byOrdinal;
    private final List<ManifestPart> parts;
    private final KeyPaths paths;
    /** The root's key with a trailing slash ("" for the bucket's root). */
    private final String prefix;
    /** Each directory's path (relative key), made once for all its parts. */
    private final Map<String, Path> directoryPaths;
    /** Positions of the parts directly in each directory (relative key), in the manifest's order. */
    private final Map<String, int[]> ordinalsByDirectory;
    /** Position by part, made on the first lookup of a single part (listings go by directory). */
    private volatile Map<ManifestPart, Integer> byPart;

    /** A part's path and its position in the manifest's part list. */
    record Listed(Path path, int ordinal) {
    }

    private PartPaths(List<ManifestPart> parts, KeyPaths paths, String prefix, Map<String, Path> directoryPaths,
                      Map<String, int[]> ordinalsByDirectory) {
        this.byOrdinal = new java.util.concurrent.atomic.AtomicReferenceArray<>(parts.size());
        this.parts = parts;
        this.paths = paths;
        this.prefix = prefix;
        this.directoryPaths = directoryPaths;
        this.ordinalsByDirectory = ordinalsByDirectory;
    }

    static PartPaths of(LoadedManifest manifest, KeyPaths paths) {
        List<ManifestPart> parts = manifest.manifest().parts();
        Map<String, Directory> directories = new HashMap<>();
        String prefix = manifest.rootKey().isEmpty() ? "" : manifest.rootKey() + "/";
        Directory last = null; // parts of a directory come together: most need no lookup
        for (int i = 0; i < parts.size(); i++) {
            String relativePath = parts.get(i).path();
            int slash = relativePath.lastIndexOf('/');
            Directory directory;
            if (last != null && last.matches(relativePath, slash)) {
                directory = last;
            } else {
                String relative = slash < 0 ? "" : relativePath.substring(0, slash);
                directory = directories.computeIfAbsent(relative, r -> new Directory(r,
                        paths.pathOf(r.isEmpty() ? manifest.rootKey() : prefix + r)));
            }
            directory.add(i);
            last = directory;
        }
        Map<String, int[]> ordinals = new HashMap<>();
        Map<String, Path> directoryPaths = new HashMap<>();
        directories.forEach((relative, directory) -> {
            ordinals.put(relative, directory.ordinals());
            directoryPaths.put(relative, directory.path);
        });
        return new PartPaths(parts, paths, prefix, directoryPaths, ordinals);
    }

    /** A directory's path and its parts' positions, while the positions are gathered. */
    private static final class Directory {
        final String relative;
        final Path path;
        int[] positions = new int[4];
        int count;

        Directory(String relative, Path path) {
            this.relative = relative;
            this.path = path;
        }

        /** Whether a part's relative path (its last slash at {@code slash}) is directly in this directory. */
        boolean matches(String relativePath, int slash) {
            return slash < 0 ? relative.isEmpty() : slash == relative.length() && relativePath.startsWith(relative);
        }

        void add(int ordinal) {
            if (count == positions.length) {
                positions = java.util.Arrays.copyOf(positions, count * 2);
            }
            positions[count++] = ordinal;
        }

        int[] ordinals() {
            return java.util.Arrays.copyOf(positions, count);
        }
    }

    /** The part's path and position; a part of another manifest instance gets a new path and position -1. */
    Listed of(ManifestPart part, LoadedManifest manifest, KeyPaths paths) {
        Map<ManifestPart, Integer> positions = byPart;
        if (positions == null) {
            positions = new IdentityHashMap<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                positions.put(parts.get(i), i);
            }
            byPart = positions;
        }
        Integer ordinal = positions.get(part);
        return ordinal != null ? new Listed(path(ordinal), ordinal)
                : new Listed(paths.pathOf(manifest.keyOf(part)), -1);
    }

    /** Positions of the parts directly in a directory (relative key), in the order the manifest lists them. */
    int[] ordinalsIn(String relativeDirectory) {
        return ordinalsByDirectory.getOrDefault(relativeDirectory, new int[0]);
    }

    ManifestPart part(int ordinal) {
        return parts.get(ordinal);
    }

    Path path(int ordinal) {
        Path path = byOrdinal.get(ordinal);
        if (path == null) {
            // Two threads may both make it: equal paths, either kept (published safely by the atomic array).
            String relativePath = parts.get(ordinal).path();
            int slash = relativePath.lastIndexOf('/');
            path = new PartPath(paths.pathOf(prefix + relativePath).toUri(),
                    directoryPaths.get(slash < 0 ? "" : relativePath.substring(0, slash)),
                    relativePath.substring(slash + 1));
            byOrdinal.set(ordinal, path);
        }
        return path;
    }

    /**
     * A part's path that hands out its directory's path and its name instead of making new ones (Spark asks
     * each file's name three times per listing, and each answer was a new string cut from the URI). Equal to
     * any path of the same URI.
     */
    private static final class PartPath extends Path {

        private static final long serialVersionUID = 1L;
        private final transient Path parent;
        private final transient String name;

        PartPath(URI uri, Path parent, String name) {
            super(uri);
            this.parent = parent;
            this.name = name;
        }

        @Override
        public Path getParent() {
            return parent != null ? parent : super.getParent();
        }

        @Override
        public String getName() {
            return name != null ? name : super.getName();
        }
    }
}
