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

    private final Map<ManifestPart, Listed> byPart;

    /** A part's path and its position in the manifest's part list. */
    record Listed(Path path, int ordinal) {
    }

    private PartPaths(Map<ManifestPart, Listed> byPart) {
        this.byPart = byPart;
    }

    static PartPaths of(LoadedManifest manifest, KeyPaths paths) {
        List<ManifestPart> parts = manifest.manifest().parts();
        Map<ManifestPart, Listed> byPart = new IdentityHashMap<>(parts.size());
        Map<String, Path> directories = new HashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            ManifestPart part = parts.get(i);
            String key = manifest.keyOf(part);
            int slash = key.lastIndexOf('/');
            String directoryKey = slash < 0 ? "" : key.substring(0, slash);
            Path directory = directories.computeIfAbsent(directoryKey, paths::pathOf);
            byPart.put(part, new Listed(new PartPath(paths.pathOf(key).toUri(), directory, key.substring(slash + 1)), i));
        }
        return new PartPaths(byPart);
    }

    /** The part's path and position; a part of another manifest instance gets a new path and position -1. */
    Listed of(ManifestPart part, LoadedManifest manifest, KeyPaths paths) {
        Listed listed = byPart.get(part);
        return listed != null ? listed : new Listed(paths.pathOf(manifest.keyOf(part)), -1);
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
