package io.stork.store.cache;

import io.stork.store.ObjectKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Blocks of object versions in files of one local directory, bounded in bytes, evicted in the order of
 * the settings' {@link EvictionPolicy}.
 *
 * <p>Shared by the tasks of an executor and by every JVM whose cache points at the same directory:
 * <ul>
 *   <li>a block is written to a temporary file and published by an atomic rename, so no reader ever sees
 *       a partial one, also after a process is killed mid-write (its temporary file is removed later);</li>
 *   <li>every file carries a CRC32C: a damaged one is dropped and read from the store;</li>
 *   <li>recency is the file's modification time, touched on use (at most once a minute per block), so
 *       each JVM's eviction sees what the others used; when over its bound, a JVM rescans the directory,
 *       then deletes files in the policy's order until 90% of the bound is left;</li>
 *   <li>a file another JVM evicted between lookup and read is a miss.</li>
 * </ul>
 */
final class BlockCache {

    private static final String TEMP_SUFFIX = ".tmp";
    private static final long TOUCH_INTERVAL_MS = 60_000;
    private static final long STALE_TEMP_MS = 10 * 60_000;

    private final BlockCacheSettings settings;
    private final BlockCacheStatistics statistics;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    /** Recency stamps: epoch microseconds, strictly increasing in this JVM (uses within a millisecond stay ordered). */
    private final AtomicLong clock = new AtomicLong();
    private final EvictionHistory<String> history;

    /**
     * A file this JVM knows of: its size, when it was written and last used (both {@link #stamp()}s), and
     * how often this JVM used it (writing it is the first use; another JVM's file counts one).
     */
    private static final class Entry {
        final long size;
        final long insertedAt;
        volatile long usedAt;
        volatile long touchedAt;
        /** Approximate under concurrent reads of one block: a policy's hint, not a count anyone relies on. */
        volatile int uses;

        Entry(long size, long usedAt, long touchedAt, int uses) {
            this.size = size;
            this.insertedAt = usedAt;
            this.usedAt = usedAt;
            this.touchedAt = touchedAt;
            this.uses = uses;
        }
    }

    private final BlockWriter writer;

    BlockCache(BlockCacheSettings settings, BlockCacheStatistics statistics) throws IOException {
        this.settings = settings;
        this.statistics = statistics;
        Files.createDirectories(settings.directory());
        history = new EvictionHistory<>((int) Math.min(1 << 20,
                settings.maxBytes() / settings.blockSize() * EvictionHistory.PERCENT_OF_CACHE / 100));
        rescan();
        writer = new BlockWriter(settings.blockSize(), statistics, this::write);
    }

    /** An array of the block size for a stream to fill ({@link BlockWriter#buffer}). */
    byte[] buffer() {
        return writer.buffer();
    }

    /** Keeps {@code block} later, on the writer thread, or drops it when the disk is behind ({@link BlockWriter}). */
    void writeLater(BlockId id, CachedBlock block) {
        writer.writeLater(id, block);
    }

    /** Waits until the blocks handed over so far are written (tests, benchmarks). */
    void flush() throws InterruptedException {
        writer.flush();
    }

    void close() {
        writer.close();
    }

    BlockCacheSettings settings() {
        return settings;
    }

    /** The block, or empty: never cached, evicted, or damaged (then deleted). */
    Optional<CachedBlock> read(BlockId id) {
        return read(id, null, true);
    }

    /**
     * As {@link #read(BlockId)}, into {@code reuse} when the file fits (a stream reads block after block
     * into one array: arrays of a block's size are "humongous" for G1 and costly to allocate per block).
     */
    Optional<CachedBlock> read(BlockId id, byte[] reuse) {
        return read(id, reuse, true);
    }

    /** @param use whether a reader uses the block (the writer looking for a run to join does not) */
    private Optional<CachedBlock> read(BlockId id, byte[] reuse, boolean use) {
        String name = id.fileName();
        Path file = settings.directory().resolve(name);
        byte[] raw;
        int size;
        try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(file)) {
            long length = in.size();
            if (length > settings.blockSize() + 64L * 1024) {
                throw new IOException("block file too long");
            }
            size = (int) length;
            raw = reuse != null && reuse.length >= size ? reuse : new byte[size];
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(raw, 0, size);
            while (buffer.hasRemaining() && in.read(buffer) >= 0) {
                // until the file's end
            }
            if (buffer.hasRemaining()) {
                throw new IOException("block file shorter than its size");
            }
        } catch (NoSuchFileException e) {
            forget(name);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
        CachedBlock block;
        try {
            block = CachedBlock.decode(raw, size, settings.blockSize(), id.key(), id.etag());
        } catch (IOException damaged) {
            statistics.damaged();
            delete(name);
            return Optional.empty();
        }
        long now = System.currentTimeMillis();
        long stamp = stamp();
        Entry entry = entries.computeIfAbsent(name, n -> {
            bytes.addAndGet(size);
            return new Entry(size, stamp, now, 1);
        });
        if (!use) {
            return Optional.of(block);
        }
        entry.usedAt = stamp;
        entry.uses = Math.min(entry.uses + 1, Integer.MAX_VALUE - 1);
        if (now - entry.touchedAt > TOUCH_INTERVAL_MS) {
            entry.touchedAt = now;
            try {
                Files.setLastModifiedTime(file, FileTime.fromMillis(now));
            } catch (IOException ignored) {
                // evicted meanwhile: nothing to keep fresh
            }
        }
        return Optional.of(block);
    }

    /**
     * The version of {@code key} a read that named none last saw, if this directory remembers one: what a
     * later such read asks the store about before using the blocks of it.
     */
    Optional<String> version(ObjectKey key) {
        try {
            String etag = new String(Files.readAllBytes(settings.directory().resolve(versionFile(key))),
                    StandardCharsets.UTF_8);
            return etag.isEmpty() ? Optional.empty() : Optional.of(etag);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    void recordVersion(ObjectKey key, String etag) {
        if (version(key).filter(etag::equals).isPresent()) {
            return;
        }
        String name = versionFile(key);
        byte[] bytes = etag.getBytes(StandardCharsets.UTF_8);
        if (publish(name, file -> {
            Files.write(file, bytes, java.nio.file.StandardOpenOption.CREATE_NEW);
            return bytes.length;
        }) >= 0) {
            Entry previous = entries.put(name, new Entry(bytes.length, stamp(), System.currentTimeMillis(), 1));
            this.bytes.addAndGet(bytes.length - (previous == null ? 0 : previous.size));
        }
    }

    private static String versionFile(ObjectKey key) {
        return BlockId.versionDigest(key, "") + ".v";
    }

    /**
     * Keeps {@code block} for {@code id}, joined with what the cache holds for it when the two runs meet.
     * Failures to write (a full disk) lose the block, never the read: the bytes were served already.
     */
    void write(BlockId id, CachedBlock block) {
        String name = id.fileName();
        CachedBlock kept = block;
        // A whole block holds all a file for it could: nothing to join, so no read (the common case of a scan).
        boolean whole = block.offset() == 0 && block.length() == settings.blockSize();
        Optional<CachedBlock> existing = whole ? Optional.empty() : read(id, null, false); // this JVM's or another's
        if (existing.isPresent()) {
            kept = existing.get().union(block);
            if (kept == existing.get()) {
                return; // holds these bytes already
            }
        }
        CachedBlock toWrite = kept;
        long size = publish(name, file -> {
            return toWrite.writeTo(file);
        });
        if (size < 0) {
            return;
        }
        statistics.stored(size);
        Entry known = entries.get(name);
        // A fuller run of a block keeps its uses; a block evicted lately and fetched again is in reuse.
        int uses = known != null ? Math.max(1, known.uses) : history.recall(name) ? 2 : 1;
        Entry previous = entries.put(name, new Entry(size, stamp(), System.currentTimeMillis(), uses));
        bytes.addAndGet(size - (previous == null ? 0 : previous.size));
        if (bytes.get() > settings.maxBytes()) {
            evict();
        }
    }

    private long stamp() {
        long micros = System.currentTimeMillis() * 1000;
        return clock.updateAndGet(previous -> Math.max(previous + 1, micros));
    }

    /** Writes a file aside (returning its size), for {@link #publish}. */
    private interface FileWriter {
        long write(Path file) throws IOException;
    }

    /**
     * Writes {@code name} aside, then renames it into place: readers see the whole file or none. Returns
     * the file's size, or -1 when it could not be written.
     */
    private long publish(String name, FileWriter content) {
        Path target = settings.directory().resolve(name);
        Path temp = settings.directory().resolve(name + "." + UUID.randomUUID() + TEMP_SUFFIX);
        try {
            long size;
            try {
                size = content.write(temp);
            } catch (NoSuchFileException gone) {
                // The directory was removed under the cache (a temp cleaner, an operator): make it again.
                Files.createDirectories(settings.directory());
                size = content.write(temp);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return size;
        } catch (IOException e) {
            // A full disk, or a file system without atomic rename (which cannot hold blocks safely): the
            // block is lost, never the read, whose bytes were served already.
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // a stale temporary file is removed by a later rescan
            }
            return -1;
        }
    }

    /** Bytes of block files this JVM knows of. */
    long size() {
        return bytes.get();
    }

    private synchronized void evict() {
        if (bytes.get() <= settings.maxBytes()) {
            return; // another thread evicted already
        }
        rescan();
        long target = settings.maxBytes() / 10 * 9;
        List<EvictionPolicy.Candidate<String>> candidates = new ArrayList<>(entries.size());
        entries.forEach((name, e) -> candidates.add(new EvictionPolicy.Candidate<>(name, e.size, e.insertedAt, e.usedAt,
                e.uses)));
        for (EvictionPolicy.Candidate<String> victim : settings.eviction().order(candidates, settings.maxBytes())) {
            if (bytes.get() <= target) {
                break;
            }
            delete(victim.key());
            history.evicted(victim.key());
            statistics.evicted();
        }
    }

    /** Takes the directory's files as they are: other JVMs' blocks in, evicted ones out, dead temporaries deleted. */
    private synchronized void rescan() {
        Map<String, Entry> found = new ConcurrentHashMap<>();
        long now = System.currentTimeMillis();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(settings.directory())) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(file, BasicFileAttributes.class);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                if (!attributes.isRegularFile()) {
                    continue;
                }
                long modified = attributes.lastModifiedTime().toMillis();
                if (name.endsWith(TEMP_SUFFIX)) {
                    if (now - modified > STALE_TEMP_MS) {
                        Files.deleteIfExists(file); // left by a process killed mid-write
                    }
                    continue;
                }
                Entry known = entries.get(name);
                found.put(name, known != null && known.size == attributes.size() ? known
                        : new Entry(attributes.size(), modified * 1000, modified, 1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("block cache " + settings.directory() + " cannot be listed", e);
        }
        entries.keySet().retainAll(found.keySet());
        entries.putAll(found);
        bytes.set(entries.values().stream().mapToLong(e -> e.size).sum());
    }

    private void delete(String name) {
        try {
            Files.deleteIfExists(settings.directory().resolve(name));
        } catch (IOException ignored) {
            // left for the next eviction
        }
        forget(name);
    }

    private void forget(String name) {
        Entry removed = entries.remove(name);
        if (removed != null) {
            bytes.addAndGet(-removed.size);
        }
    }
}
