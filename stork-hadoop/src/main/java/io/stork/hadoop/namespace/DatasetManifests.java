package io.stork.hadoop.namespace;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.segment.SegmentCodec;
import io.stork.manifest.segment.SegmentSource;
import io.stork.manifest.GenerationInfo;
import io.stork.manifest.PartNames;
import io.stork.manifest.RemovedPart;
import io.stork.manifest.SnapshotRef;
import io.stork.store.ByteRange;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.ReadCondition;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Finds and caches the Stork manifests of dataset directories, and keeps them current.
 *
 * <ul>
 *   <li>{@link #at}: the cached answer if there is one (a directory stays a directory whatever its
 *       generation), else one GET of {@code <dir>/_SUCCESS}.</li>
 *   <li>{@link #current}: the answer as the store has it now, for a query's listing of the dataset: one
 *       conditional GET ({@code If-None-Match} with the cached manifest's ETag), which the store answers
 *       with 304 and no body while the dataset is unchanged. A commit made by any process is therefore
 *       visible to the next listing that starts after it returned.</li>
 * </ul>
 *
 * A cached answer past its TTL is revalidated before any use. Writes and deletes through this file system
 * drop the affected entries at once. A {@code _SUCCESS} that is not a Stork manifest (Hadoop's empty
 * marker, another committer's JSON) counts as none; a broken one fails the read, never silently.
 */
public final class DatasetManifests {

    /**
     * A directory's manifest (null: none) with the ETag it was read at, and when the store last confirmed
     * it. {@code unlisted}: read by a status call ({@link #at}) and not yet used by a listing; the query
     * that just looked at the dataset lists it next, and need not ask again.
     */
    private record Entry(LoadedManifest manifest, String etag, long validatedAt, boolean unlisted) {

        Entry listed() {
            return new Entry(manifest, etag, validatedAt, false);
        }
    }

    /**
     * How long a manifest read by a query's status call (an existence check) serves that query's listing
     * without a second call: one query's planning, not another query's.
     */
    private static final long SAME_QUERY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    private final ObjectStore store;
    private final String bucket;
    private final Duration retention;
    private final long ttlNanos;
    private final int capacity;
    private final Map<String, Entry> entries;
    /**
     * The decoded segments of each dataset's last manifest read, by name: segments never change, so the next
     * generation (an append) fetches only the segments it adds. Only those the last manifest named are kept.
     */
    private final Map<String, Map<String, SegmentCodec.Decoded>> segments =
            new java.util.concurrent.ConcurrentHashMap<>();

    public DatasetManifests(ObjectStore store, String bucket, int capacity, Duration ttl, Duration retention) {
        this.store = store;
        this.bucket = bucket;
        this.retention = retention;
        this.capacity = capacity;
        this.ttlNanos = ttl.toNanos();
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > DatasetManifests.this.capacity;
            }
        };
    }

    /** The manifest of directory {@code dirKey}: cached (unless past its TTL), else one GET. */
    public Optional<LoadedManifest> at(String dirKey) throws IOException {
        Entry entry = fresh(dirKey);
        return entry != null ? Optional.ofNullable(entry.manifest) : load(dirKey, true);
    }

    /** The manifest of directory {@code dirKey} if this file system has it cached and fresh; no call. */
    public Optional<LoadedManifest> cachedAt(String dirKey) {
        Entry entry = fresh(dirKey);
        return entry == null ? Optional.empty() : Optional.ofNullable(entry.manifest);
    }

    /**
     * The manifest of directory {@code dirKey} as the store has it now: one conditional GET when a
     * manifest is cached (304 while unchanged), else one GET.
     */
    public Optional<LoadedManifest> current(String dirKey) throws IOException {
        return load(dirKey, false);
    }

    /**
     * The manifest of directory {@code dirKey} for a listing of it, where a query starts reading a dataset:
     * revalidated ({@link #current}) unless this query's own status call read it moments ago, or it is a
     * past generation (immutable). A directory known to have no manifest stays so until its TTL (a listing
     * that then shows attempt parts asks again).
     */
    public Optional<LoadedManifest> forListing(String dirKey) throws IOException {
        synchronized (this) {
            Entry cached = entries.get(dirKey);
            long now = System.nanoTime();
            if (cached != null && now - cached.validatedAt < ttlNanos
                    && (cached.manifest == null || cached.manifest.pinned())) {
                return Optional.ofNullable(cached.manifest);
            }
            if (cached != null && cached.unlisted && now - cached.validatedAt < SAME_QUERY_NANOS) {
                entries.put(dirKey, cached.listed());
                return Optional.ofNullable(cached.manifest);
            }
        }
        return load(dirKey, false);
    }

    private Optional<LoadedManifest> load(String dirKey, boolean byStatusCall) throws IOException {
        Entry cached;
        synchronized (this) {
            cached = entries.get(dirKey);
        }
        Entry loaded = load(dirKey, cached);
        if (byStatusCall) {
            loaded = new Entry(loaded.manifest, loaded.etag, loaded.validatedAt, true);
        }
        synchronized (this) {
            if (capacity > 0) {
                entries.put(dirKey, loaded);
            }
        }
        return Optional.ofNullable(loaded.manifest);
    }

    private synchronized Entry fresh(String dirKey) {
        Entry entry = entries.get(dirKey);
        return entry != null && System.nanoTime() - entry.validatedAt < ttlNanos ? entry : null;
    }

    /**
     * This process has just committed {@code manifest} to {@code dirKey}: remember it as a read would (no
     * ETag, so the next revalidation is a full GET), so that the next write to the dataset from this
     * process finds its properties without a call. Listings revalidate as always.
     */
    public synchronized void recordCommitted(String dirKey, Manifest manifest) {
        if (capacity > 0) {
            entries.put(dirKey, new Entry(LoadedManifest.index(dirKey, manifest), null, System.nanoTime(), false));
        }
    }

    /** A GET elsewhere found no manifest in {@code dirKey}: remember it, as a failed lookup would. */
    public synchronized void recordAbsent(String dirKey) {
        if (capacity > 0) {
            entries.put(dirKey, new Entry(null, null, System.nanoTime(), false));
        }
    }

    /** A cached manifest (within its TTL) whose dataset contains {@code key} (the root or below); no call. */
    public synchronized Optional<LoadedManifest> cachedCovering(String key) {
        long now = System.nanoTime();
        for (Entry entry : entries.values()) {
            if (entry.manifest != null && now - entry.validatedAt < ttlNanos && entry.manifest.covers(key)) {
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
    public Optional<LoadedManifest> findCovering(String key) throws IOException {
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
    public synchronized void invalidate(String key) {
        Iterator<String> it = entries.keySet().iterator();
        while (it.hasNext()) {
            String dir = it.next();
            if (dir.isEmpty() || key.isEmpty() || key.equals(dir) || key.startsWith(dir + "/")
                    || dir.startsWith(key + "/")) {
                it.remove();
            }
        }
    }

    private Entry load(String dirKey, Entry cached) throws IOException {
        Optional<SnapshotRef> pinned = SnapshotRef.of(dirKey).filter(ref -> ref.root().equals(dirKey));
        if (pinned.isPresent()) {
            return new Entry(pinnedGeneration(pinned.get()), null, System.nanoTime(), false);
        }
        String manifestKey = dirKey.isEmpty() ? PartNames.MANIFEST : dirKey + "/" + PartNames.MANIFEST;
        ObjectKey key = ObjectKey.of(bucket, manifestKey);
        String source = "stork://" + bucket + "/" + manifestKey;
        ReadCondition condition = cached != null && cached.etag != null ? ReadCondition.ifNoneMatch(cached.etag)
                : ReadCondition.NONE;
        try (ObjectStream in = store.get(key, ByteRange.all(), condition)) {
            String etag = in.info().etag();
            if (in.info().length() == 0) {
                return new Entry(null, etag, System.nanoTime(), false); // Hadoop's own success marker
            }
            Map<String, SegmentCodec.Decoded> known = segments.getOrDefault(dirKey, Map.of());
            Map<String, SegmentCodec.Decoded> named = new java.util.concurrent.ConcurrentHashMap<>();
            SegmentSource fetch = SegmentSource.of(relative -> {
                try {
                    return store.get(ObjectKey.of(bucket, dirKey.isEmpty() ? relative : dirKey + "/" + relative),
                            ByteRange.all());
                } catch (ObjectNotFoundException e) {
                    throw new java.io.FileNotFoundException(relative);
                }
            }, "stork://" + bucket + "/" + dirKey);
            Optional<Manifest> manifest = ManifestCodec.readIfStork(in, source, (name, length) -> {
                SegmentCodec.Decoded d = known.get(name);
                if (d == null || d.segment().length() != length) {
                    d = fetch.load(name, length);
                }
                named.put(name, d);
                return d;
            });
            if (named.isEmpty()) {
                segments.remove(dirKey);
            } else {
                segments.put(dirKey, named);
            }
            return new Entry(manifest.map(m -> LoadedManifest.index(dirKey, m)).orElse(null), etag, System.nanoTime(),
                    false);
        } catch (NotModifiedException unchanged) {
            return new Entry(cached.manifest, cached.etag, System.nanoTime(), false);
        } catch (ObjectNotFoundException e) {
            return new Entry(null, null, System.nanoTime(), false);
        }
    }

    /**
     * A dataset pinned to a past generation ({@code t@v3}): the current manifest, one GET, rebuilt as that
     * generation's. Its parts must still be in the store: a generation whose dropped parts have left the
     * retention period may have been vacuumed, and is refused rather than read in part.
     */
    private LoadedManifest pinnedGeneration(SnapshotRef ref) throws IOException {
        String source = "stork://" + bucket + "/" + ref.root();
        Entry base = load(ref.dataset(), null);
        if (base.manifest == null) {
            throw new java.io.FileNotFoundException(source + ": no Stork manifest at stork://" + bucket + "/"
                    + ref.dataset() + ", so no generation to read");
        }
        Manifest current = base.manifest.manifest();
        long generation;
        try {
            generation = ref.select(current);
        } catch (IllegalArgumentException e) {
            throw new java.io.FileNotFoundException(source + ": " + e.getMessage());
        }
        // The dataset's own retention property, when it keeps one, over this file system's.
        Duration own = io.stork.hadoop.settings.DatasetPropertyKeys.retention(current.properties(), retention);
        java.time.Instant expiry = java.time.Instant.now().minus(own);
        for (RemovedPart removed : current.removed()) {
            if (removed.namedBy(generation) && removed.removedAt().isBefore(expiry)) {
                throw new java.io.FileNotFoundException(source + ": generation " + generation + " is older than the "
                        + "retention period (" + (own.equals(retention) ? "fs.stork.retention" : "dataset property "
                        + io.stork.hadoop.settings.DatasetPropertyKeys.RETENTION) + "=" + own + "); its replaced "
                        + "parts may have been vacuumed");
            }
        }
        GenerationInfo info = current.info(generation).orElse(null);
        Manifest view = new Manifest(current.version(), current.writer(),
                info == null ? current.jobId() : info.jobId(), generation,
                info == null ? current.operation() : info.operation(), current.createdAt(),
                info == null ? current.committedAt() : info.committedAt(), current.partsAt(generation))
                .withDatasetSchema(current.datasetSchemaAt(generation)); // only if the schema has not changed since
        return LoadedManifest.index(ref.root(), view, ref.dataset());
    }

    private static String parentOf(String key) {
        int slash = key.lastIndexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }
}
