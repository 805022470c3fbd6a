package io.stork.hadoop.namespace;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A dataset's manifest as the file system serves it: the parts indexed by directory, so that listing the
 * dataset root or any partition directory below it is a map lookup.
 *
 * @param rootKey       the directory's key as the caller names it (no trailing slash); for a dataset pinned
 *                      to a past generation, the pinned name ({@code t@v3})
 * @param objectRootKey the dataset directory whose objects the parts are ({@code t})
 * @param derived       views other layers derive from these parts (data skipping's statistics), computed
 *                      once and kept as long as this generation's manifest is cached
 */
public record LoadedManifest(String rootKey, String objectRootKey, Manifest manifest, PartsByPath partsByPath,
                      Map<String, List<ManifestPart>> filesByDirectory,
                      Map<String, TreeSet<String>> subdirectoriesByDirectory,
                      java.util.concurrent.ConcurrentMap<String, Object> derived) {

    public static LoadedManifest index(String rootKey, Manifest manifest) {
        return index(rootKey, manifest, rootKey);
    }

    public static LoadedManifest index(String rootKey, Manifest manifest, String objectRootKey) {
        Map<String, List<ManifestPart>> files = new HashMap<>();
        Map<String, TreeSet<String>> subdirectories = new HashMap<>();
        String lastDirectory = null;
        List<ManifestPart> lastFiles = null;
        for (ManifestPart part : manifest.parts()) {
            String path = part.path();
            int slash = path.lastIndexOf('/');
            // A directory's parts come together: most parts need neither a substring nor a lookup.
            if (lastDirectory != null && (slash < 0 ? lastDirectory.isEmpty()
                    : slash == lastDirectory.length() && path.startsWith(lastDirectory))) {
                lastFiles.add(part);
                continue;
            }
            String directory = slash < 0 ? "" : path.substring(0, slash);
            lastDirectory = directory;
            lastFiles = files.computeIfAbsent(directory, d -> new ArrayList<>());
            lastFiles.add(part);
            // Register each ancestor directory with its parent, up to the root ("").
            String child = directory;
            while (!child.isEmpty()) {
                int up = child.lastIndexOf('/');
                String parent = up < 0 ? "" : child.substring(0, up);
                if (!subdirectories.computeIfAbsent(parent, d -> new TreeSet<>()).add(child)) {
                    break; // the rest of the chain is known already
                }
                child = parent;
            }
        }
        return new LoadedManifest(rootKey, objectRootKey, manifest, new PartsByPath(manifest.parts()), files, subdirectories,
                new java.util.concurrent.ConcurrentHashMap<>());
    }

    /**
     * The parts by relative path, indexed on the first lookup: a reader that lists and judges from the
     * manifest never looks a part up by path, and a million-entry map is not free to build.
     */
    public static final class PartsByPath {
        private final List<ManifestPart> parts;
        private volatile Map<String, ManifestPart> byPath;

        PartsByPath(List<ManifestPart> parts) {
            this.parts = parts;
        }

        ManifestPart get(String relativePath) {
            Map<String, ManifestPart> map = byPath;
            if (map == null) {
                map = new HashMap<>(Math.max(16, parts.size() * 4 / 3 + 1));
                for (ManifestPart part : parts) {
                    map.put(part.path(), part);
                }
                byPath = map;
            }
            return map.get(relativePath);
        }
    }

    /** The key of {@code key} relative to the root, or null if it is not the root or below it. */
    public String relative(String key) {
        if (key.equals(rootKey)) {
            return "";
        }
        String prefix = rootKey.isEmpty() ? "" : rootKey + "/";
        return key.startsWith(prefix) ? key.substring(prefix.length()) : null;
    }

    public boolean covers(String key) {
        return relative(key) != null;
    }

    /** The part at a relative path, or null. */
    public ManifestPart part(String relativePath) {
        return partsByPath.get(relativePath);
    }

    /** The parts directly in a directory (relative key). */
    public List<ManifestPart> files(String relativeDirectory) {
        return filesByDirectory.getOrDefault(relativeDirectory, List.of());
    }

    /** The subdirectories (relative keys) directly in a directory that lead to parts. */
    public TreeSet<String> subdirectories(String relativeDirectory) {
        return subdirectoriesByDirectory.getOrDefault(relativeDirectory, new TreeSet<>());
    }

    public boolean isDirectory(String relativeDirectory) {
        return relativeDirectory.isEmpty() || filesByDirectory.containsKey(relativeDirectory)
                || subdirectoriesByDirectory.containsKey(relativeDirectory);
    }

    /** The key of a part as the caller names it (under {@link #rootKey()}). */
    public String keyOf(ManifestPart part) {
        return rootKey.isEmpty() ? part.path() : rootKey + "/" + part.path();
    }

    /** The key of the object that holds a part. */
    public String objectKeyOf(ManifestPart part) {
        return objectRootKey.isEmpty() ? part.path() : objectRootKey + "/" + part.path();
    }

    /** Whether this is a dataset pinned to a past generation (read-only, immutable). */
    public boolean pinned() {
        return !objectRootKey.equals(rootKey);
    }
}
