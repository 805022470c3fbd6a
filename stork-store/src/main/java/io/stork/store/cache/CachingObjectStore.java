package io.stork.store.cache;

import io.stork.store.ByteRange;
import io.stork.store.ForwardingObjectStore;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.ReadCondition;
import java.io.IOException;
import java.util.Optional;

/**
 * Serves reads of a known object version from a local {@link BlockCache} and keeps what it reads from
 * the store there.
 *
 * <p>Blocks are keyed by the object's ETag, so they can never be stale: a GET with {@code If-Match:
 * <etag>} (Stork reads parts named by a manifest that way, and every read after a stream's first) is
 * served from blocks of that version with no call; a GET that names no version is revalidated (one call,
 * no body when unchanged). A GET of the caller's own {@code If-None-Match} and every other call go to the
 * store. A miss costs the one GET it would have made, for the same bytes (nothing is widened to block
 * boundaries, so a cold read fetches no more than without the cache). Every call but GET and close is
 * forwarded unchanged by {@link ForwardingObjectStore}.
 */
public final class CachingObjectStore extends ForwardingObjectStore {

    private final BlockCache cache;
    private final BlockCacheStatistics statistics;

    public CachingObjectStore(ObjectStore delegate, BlockCacheSettings settings) throws IOException {
        this(delegate, settings, CacheReadListener.NONE);
    }

    /** @param listener told of each read's bytes served and fetched, on the reading thread */
    public CachingObjectStore(ObjectStore delegate, BlockCacheSettings settings, CacheReadListener listener)
            throws IOException {
        super(delegate);
        this.statistics = new BlockCacheStatistics(listener);
        this.cache = new BlockCache(settings, statistics);
    }

    /** Hits, misses and bytes of this cache. */
    public BlockCacheStatistics cacheStatistics() {
        return statistics;
    }

    public BlockCacheSettings cacheSettings() {
        return cache.settings();
    }

    /**
     * Waits until every block read so far is on disk (blocks are written by a thread of their own, so that
     * reads never wait for the disk): for tests and benchmarks that read again at once.
     */
    public void flush() throws IOException {
        try {
            cache.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while the block cache was written");
        }
    }

    /** Bytes of block files this cache knows of in its directory. */
    public long cachedBytes() {
        return cache.size();
    }

    @Override
    public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException {
        if (condition.isNone()) {
            return revalidated(key, range);
        }
        if (!condition.match()) {
            return delegate().get(key, range, condition); // the caller revalidates a copy of its own
        }
        Optional<ObjectStream> cached = fromCache(key, range, condition.etag());
        if (cached.isPresent()) {
            return cached.get();
        }
        statistics.miss();
        return filling(key, condition.etag(), delegate().get(key, range, condition));
    }

    /**
     * A read that names no version (a file opened by path, where no manifest said which): when the cache
     * holds the version it last saw of this key, one GET with {@code If-None-Match} asks whether it is
     * still current; unchanged (304, no body), the bytes come from the cache; changed, the answer is the
     * new version, kept under its own ETag. Either way the read costs the one call it would have cost.
     */
    private ObjectStream revalidated(ObjectKey key, ByteRange range) throws IOException {
        Optional<String> known = cache.version(key);
        if (known.isPresent()) {
            Optional<ObjectStream> cached = fromCache(key, range, known.get());
            if (cached.isPresent()) {
                ObjectStream changed;
                try {
                    changed = delegate().get(key, range, ReadCondition.ifNoneMatch(known.get()));
                } catch (NotModifiedException unchanged) {
                    statistics.revalidated();
                    return cached.get();
                }
                cached.get().close();
                return remembered(key, changed);
            }
        }
        statistics.miss();
        return remembered(key, delegate().get(key, range, ReadCondition.NONE));
    }

    private ObjectStream remembered(ObjectKey key, ObjectStream opened) throws IOException {
        String etag = opened.info().etag();
        if (etag == null || etag.isEmpty()) {
            return opened; // a version cannot be named: nothing can be kept for it
        }
        cache.recordVersion(key, etag);
        return filling(key, etag, opened);
    }

    /** The read served from the cache when it holds the range's first byte of version {@code etag}. */
    private Optional<ObjectStream> fromCache(ObjectKey key, ByteRange range, String etag) {
        int blockSize = cache.settings().blockSize();
        long start = range.start();
        int inBlock = (int) (start % blockSize);
        Optional<CachedBlock> first = cache.read(new BlockId(key, etag, start / blockSize))
                .filter(block -> block.holds(inBlock) && start < block.info().length());
        if (first.isEmpty()) {
            return Optional.empty();
        }
        CachedBlock block = first.get();
        long length = block.info().length();
        long end = range.isOpenEnded() ? length : Math.min(length, start + range.length());
        return Optional.of(new ObjectStream(new CachedReadStream(delegate(), cache, statistics, key, block.info(), start,
                end, block, null), block.info(), start, end - start));
    }

    /** {@code opened} (a GET of version {@code etag}) read through, its bytes kept as they pass. */
    private ObjectStream filling(ObjectKey key, String etag, ObjectStream opened) {
        ObjectInfo got = opened.info();
        // Keyed by the ETag the read named (the store's may differ only in quoting).
        ObjectInfo info = new ObjectInfo(key, got.length(), etag, got.lastModified(), got.userMetadata());
        long end = opened.rangeStart() + opened.rangeLength();
        return new ObjectStream(new CachedReadStream(delegate(), cache, statistics, key, info, opened.rangeStart(), end,
                null, opened), got, opened.rangeStart(), opened.rangeLength());
    }

    @Override
    public void close() throws IOException {
        cache.close();
        super.close();
    }
}
