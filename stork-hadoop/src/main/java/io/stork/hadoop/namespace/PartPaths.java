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
        Map<String, Path> directories = new HashMap<>();
        Map<String, int[]> ordinals = new HashMap<>();
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            ManifestPart part = parts.get(i);
            String key = manifest.keyOf(part);
            int slash = key.lastIndexOf('/');
            String directoryKey = slash < 0 ? "" : key.substring(0, slash);
            Path directory = directories.computeIfAbsent(directoryKey, paths::pathOf);
            byOrdinal[i] = new PartPath(paths.pathOf(key).toUri(), directory, key.substring(slash + 1));
            String relative = part.directory();
            int[] list = ordinals.get(relative);
            int count = counts.getOrDefault(relative, 0);
            if (list == null || count == list.length) {
                list = list == null ? new int[4] : java.util.Arrays.copyOf(list, list.length * 2);
                ordinals.put(relative, list);
            }
            list[count] = i;
            counts.put(relative, count + 1);
        }
        ordinals.replaceAll((directory, list) -> java.util.Arrays.copyOf(list, counts.get(directory)));
        return new PartPaths(byOrdinal, parts, ordinals);
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
