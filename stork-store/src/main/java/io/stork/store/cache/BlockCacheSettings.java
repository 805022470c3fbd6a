package io.stork.store.cache;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how much a {@link BlockCache} keeps.
 *
 * @param directory where block files live; one cache per directory (a bucket's cache gets its own)
 * @param blockSize bytes per block: the unit of a file on disk and of eviction, not of what is fetched
 *                  (a read fetches what it asks for; a block keeps the part of it the reads covered)
 * @param maxBytes  the bound on the directory's block files, kept by evicting the least recently used
 */
public record BlockCacheSettings(Path directory, int blockSize, long maxBytes) {

    public static final int DEFAULT_BLOCK_SIZE = 1024 * 1024;
    public static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024 * 1024;

    public BlockCacheSettings {
        Objects.requireNonNull(directory, "directory");
        if (blockSize < 4096 || blockSize > 64 * 1024 * 1024) {
            throw new IllegalArgumentException("block cache block size must be between 4 KiB and 64 MiB, not "
                    + blockSize);
        }
        if (maxBytes < blockSize) {
            throw new IllegalArgumentException("block cache size " + maxBytes + " is smaller than one block ("
                    + blockSize + ")");
        }
    }

    public BlockCacheSettings withDirectory(Path value) {
        return new BlockCacheSettings(value, blockSize, maxBytes);
    }
}
