package io.stork.hadoop;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.PartNames;
import io.stork.store.ByteRange;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Finds and caches the Stork manifests of dataset directories. A directory's manifest costs one GET of
 * {@code <dir>/_SUCCESS}; the answer, including "there is none", is kept for a TTL (input is immutable
 * while a job reads it) and dropped at once when this file system writes or deletes anything in that
 * directory's tree. A {@code _SUCCESS} that is not a Stork manifest (Hadoop's empty marker, another
 * committer's JSON) counts as none; a Stork manifest that does not parse fails the read, never silently.
 */
final class DatasetManifests {

    private record Entry(LoadedManifest manifest, long expiresAt) {
    }

    private final ObjectStore store;
    private final String bucket;
    private final long ttlNanos;
    private final int capacity;
    private final Map<String, Entry> entries;

    DatasetManifests(ObjectStore store, String bucket, int capacity, Duration ttl) {
        this.store = store;
        this.bucket = bucket;
        this.capacity = capacity;
        this.ttlNanos = ttl.toNanos();
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > DatasetManifests.this.capacity;
            }
        };
    }

    /** The manifest of directory {@code dirKey} (one GET unless cached); empty if it has none. */
    Optional<LoadedManifest> at(String dirKey) throws IOException {
        synchronized (this) {
            Entry entry = entries.get(dirKey);
            if (entry != null && System.nanoTime() - entry.expiresAt < 0) {
                return Optional.ofNullable(entry.manifest);
            }
        }
        LoadedManifest loaded = load(dirKey);
        synchronized (this) {
            if (capacity > 0) {
                entries.put(dirKey, new Entry(loaded, System.nanoTime() + ttlNanos));
            }
        }
        return Optional.ofNullable(loaded);
    }

    /** A GET elsewhere found no manifest in {@code dirKey}: remember it, as a failed lookup would. */
    synchronized void recordAbsent(String dirKey) {
        if (capacity > 0) {
            entries.put(dirKey, new Entry(null, System.nanoTime() + ttlNanos));
        }
    }

    /** A cached manifest whose dataset contains {@code key} (the root or below); no call. */
    synchronized Optional<LoadedManifest> cachedCovering(String key) {
        long now = System.nanoTime();
        for (Entry entry : entries.values()) {
            if (entry.manifest != null && now - entry.expiresAt < 0 && entry.manifest.covers(key)) {
                return Optional.of(entry.manifest);
            }
        }
        return Optional.empty();
    }

    /**
     * The manifest covering {@code key}, looking at {@code key} and each ancestor up to (not including)
     * the bucket root: one GET per level not cached. Used only when a listing without a manifest of its
     * own shows attempt-named parts, to tell a partition directory of a committed dataset from the
     * output of a job that never committed.
     */
    Optional<LoadedManifest> findCovering(String key) throws IOException {
        Optional<LoadedManifest> cached = cachedCovering(key);
        if (cached.isPresent()) {
            return cached;
        }
        for (String dir = key; !dir.isEmpty(); dir = parentOf(dir)) {
            Optional<LoadedManifest> found = at(dir);
            if (found.isPresent() && found.get().covers(key)) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** This file system changed {@code key}: forget what was cached for any directory on its path or below. */
    synchronized void invalidate(String key) {
        Iterator<String> it = entries.keySet().iterator();
        while (it.hasNext()) {
            String dir = it.next();
            if (dir.isEmpty() || key.isEmpty() || key.equals(dir) || key.startsWith(dir + "/")
                    || dir.startsWith(key + "/")) {
                it.remove();
            }
        }
    }

    private LoadedManifest load(String dirKey) throws IOException {
        String manifestKey = dirKey.isEmpty() ? PartNames.MANIFEST : dirKey + "/" + PartNames.MANIFEST;
        ObjectKey key = ObjectKey.of(bucket, manifestKey);
        String source = "stork://" + bucket + "/" + manifestKey;
        try (ObjectStream in = store.get(key, ByteRange.all())) {
            if (in.info().length() == 0) {
                return null; // Hadoop's own success marker
            }
            Optional<Manifest> manifest = ManifestCodec.readIfStork(in, source);
            return manifest.map(m -> LoadedManifest.index(dirKey, m)).orElse(null);
        } catch (ObjectNotFoundException e) {
            return null;
        }
    }

    private static String parentOf(String key) {
        int slash = key.lastIndexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }
}
