package io.stork.hadoop.namespace;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;

/**
 * A bounded cache of file statuses: input is immutable while a job reads it, so a second
 * getFileStatus (split planning, then the reader) need not call the store again. Entries expire after a
 * TTL so that writers in other processes are seen eventually; this FileSystem's own writes, deletes and
 * renames invalidate at once. Only files are cached: directories are key prefixes that change as any
 * object below them does.
 */
public final class StatusCache {

    private final int capacity;
    private final long ttlNanos;
    private final Map<String, Entry> entries;

    private record Entry(FileStatus status, long expiresAt) {
    }

    public StatusCache(int capacity, Duration ttl) {
        this.capacity = capacity;
        this.ttlNanos = ttl.toNanos();
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > StatusCache.this.capacity;
            }
        };
    }

    public synchronized FileStatus get(String key) {
        if (capacity == 0) {
            return null;
        }
        Entry entry = entries.get(key);
        if (entry == null) {
            return null;
        }
        if (System.nanoTime() - entry.expiresAt > 0) {
            entries.remove(key);
            return null;
        }
        return entry.status;
    }

    public synchronized void put(String key, FileStatus status) {
        if (capacity > 0 && status.isFile()) {
            entries.put(key, new Entry(status, System.nanoTime() + ttlNanos));
        }
    }

    public synchronized void invalidate(String key) {
        entries.remove(key);
    }

    /** Drops the key and everything below it (a directory's delete or rename). */
    public synchronized void invalidateTree(String key) {
        entries.keySet().removeIf(k -> k.equals(key) || key.isEmpty() || k.startsWith(key + "/"));
    }
}
