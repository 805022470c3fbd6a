package io.stork.hadoop.namespace;

import io.stork.manifest.ManifestPart;
import java.net.URI;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * The paths of one cached manifest's parts, made once per generation instead of once per listing: a
 * dataset of a million parts is listed by every query over it (Spark lists when a DataFrame is made), and
 * making a Hadoop path parses a URI. Each part's path knows its directory's path, so Spark grouping files
 * by directory ({@code getParent()} per file) does not parse again either.
 */
final class PartPaths {

    static final String NAME = "io.stork.hadoop.partPaths";

    /** Each part's path, by its position in the manifest's part list. */
    private final Path[] byOrdinal;
    private final List<ManifestPart> parts;
    /** Positions of the parts directly in each directory (relative key), in the manifest's order. */
    private final Map<String, int[]> ordinalsByDirectory;
    /** Position by part, made on the first lookup of a single part (listings go by directory). */
    private volatile Map<ManifestPart, Integer> byPart;

    /** A part's path and its position in the manifest's part list. */
    record Listed(Path path, int ordinal) {
    }

    private PartPaths(Path[] byOrdinal, List<ManifestPart> parts, Map<String, int[]> ordinalsByDirectory) {
        this.byOrdinal = byOrdinal;
        this.parts = parts;
        this.ordinalsByDirectory = ordinalsByDirectory;
    }

    static PartPaths of(LoadedManifest manifest, KeyPaths paths) {
        List<ManifestPart> parts = manifest.manifest().parts();
        Path[] byOrdinal = new Path[parts.size()];
        Map<String, Directory> directories = new HashMap<>();
        String prefix = manifest.rootKey().isEmpty() ? "" : manifest.rootKey() + "/";
        for (int i = 0; i < parts.size(); i++) {
            ManifestPart part = parts.get(i);
            String relativePath = part.path();
            int slash = relativePath.lastIndexOf('/');
            String relative = slash < 0 ? "" : relativePath.substring(0, slash);
            Directory directory = directories.computeIfAbsent(relative, r -> new Directory(
                    paths.pathOf(r.isEmpty() ? manifest.rootKey() : prefix + r)));
            String key = prefix + relativePath;
            byOrdinal[i] = new PartPath(paths.pathOf(key).toUri(), directory.path, relativePath.substring(slash + 1));
            directory.add(i);
        }
        Map<String, int[]> ordinals = new HashMap<>();
        directories.forEach((relative, directory) -> ordinals.put(relative, directory.ordinals()));
        return new PartPaths(byOrdinal, parts, ordinals);
    }

    /** A directory's path and its parts' positions, while the positions are gathered. */
    private static final class Directory {
        final Path path;
        int[] positions = new int[4];
        int count;

        Directory(Path path) {
            this.path = path;
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
        return ordinal != null ? new Listed(byOrdinal[ordinal], ordinal)
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
        return byOrdinal[ordinal];
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
