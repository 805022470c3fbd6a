package io.stork.store.cache;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how much a {@link BlockCache} keeps.
 *
 * @param directory where block files live; one cache per directory (a bucket's cache gets its own)
 * @param blockSize bytes per block: the unit of a file on disk and of eviction, not of what is fetched
 *                  (a read fetches what it asks for; a block keeps the part of it the reads covered)
 * @param maxBytes  the bound on the directory's block files, kept by evicting in the order of {@code eviction}
 * @param eviction  which files go first when the bound is passed
 */
public record BlockCacheSettings(Path directory, int blockSize, long maxBytes, EvictionPolicy eviction) {

    public static final int DEFAULT_BLOCK_SIZE = 1024 * 1024;
    public static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024 * 1024;
    /** Chosen by measurement: docs/benchmarks/cache-eviction.md. */
    public static final EvictionPolicy DEFAULT_EVICTION = EvictionPolicy.SLRU;

    public BlockCacheSettings {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(eviction, "eviction");
        if (blockSize < 4096 || blockSize > 64 * 1024 * 1024) {
            throw new IllegalArgumentException("block cache block size must be between 4 KiB and 64 MiB, not "
                    + blockSize);
        }
        if (maxBytes < blockSize) {
            throw new IllegalArgumentException("block cache size " + maxBytes + " is smaller than one block ("
                    + blockSize + ")");
        }
    }

    /** With the default eviction policy. */
    public BlockCacheSettings(Path directory, int blockSize, long maxBytes) {
        this(directory, blockSize, maxBytes, DEFAULT_EVICTION);
    }

    public BlockCacheSettings withDirectory(Path value) {
        return new BlockCacheSettings(value, blockSize, maxBytes, eviction);
    }

    public BlockCacheSettings withEviction(EvictionPolicy value) {
        return new BlockCacheSettings(directory, blockSize, maxBytes, value);
    }
}
