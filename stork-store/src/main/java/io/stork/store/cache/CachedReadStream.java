package io.stork.store.cache;

import io.stork.store.ByteRange;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ReadCondition;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The bytes {@code [position, end)} of one object version, from cached blocks while they hold them, then
 * from one GET for the rest, whose bytes are kept block by block as they pass ("tee"). Once the stream
 * has gone to the store it stays there: blocks cached further on would otherwise cost a GET each to come
 * back to. Memory: one block being filled, one block being served.
 */
final class CachedReadStream extends InputStream {

    private final ObjectStore store;
    private final BlockCache cache;
    private final BlockCacheStatistics statistics;
    private final ObjectKey key;
    private final String etag;
    private final int blockSize;
    private final ObjectInfo info;
    private final long end;
    private long position;

    private CachedBlock current;
    private long currentIndex = -1;

    private InputStream remote;
    private byte[] fill;
    private long fillIndex = -1;
    private int fillStart;
    private int fillLength;
    private boolean closed;

    /**
     * @param first  the block holding {@code start}, already read from the cache, or null
     * @param remote a GET opened at {@code start} (when {@code first} is null), read to {@code end}
     */
    CachedReadStream(ObjectStore store, BlockCache cache, BlockCacheStatistics statistics, ObjectKey key,
                     ObjectInfo info, long start, long end, CachedBlock first, InputStream remote) {
        this.store = store;
        this.cache = cache;
        this.statistics = statistics;
        this.key = key;
        this.etag = info.etag();
        this.blockSize = cache.settings().blockSize();
        this.info = info;
        this.position = start;
        this.end = end;
        this.remote = remote;
        if (first != null) {
            current = first;
            currentIndex = start / blockSize;
            statistics.hit();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        if (len == 0) {
            return 0;
        }
        if (position >= end) {
            return -1;
        }
        int wanted = (int) Math.min(len, end - position);
        if (remote == null) {
            int inBlock = (int) (position % blockSize);
            if (servable(inBlock)) {
                int n = Math.min(wanted, current.end() - inBlock);
                current.copy(inBlock, b, off, n);
                position += n;
                statistics.served(n);
                return n;
            }
            statistics.miss();
            current = null;
            remote = store.get(key, ByteRange.of(position, end - position), ReadCondition.ifMatch(etag));
        }
        int n;
        try {
            n = remote.read(b, off, wanted);
        } catch (IOException e) {
            fillLength = 0; // what this block got so far is kept by no one: the read failed
            throw e;
        }
        if (n > 0) {
            keep(b, off, n);
            position += n;
            statistics.fromStore(n);
            if (position == end) {
                publish(); // the range is read: its last run need not wait for close
            }
        }
        return n;
    }

    /** Whether the current block, or the next one from the cache, holds {@code inBlock} of this position's block. */
    private boolean servable(int inBlock) {
        long index = position / blockSize;
        if (current != null && currentIndex == index && current.holds(inBlock)) {
            return true;
        }
        // The previous block is done with: its array takes the next one (one array per stream).
        byte[] reuse = current != null ? current.bytes() : null;
        current = cache.read(new BlockId(key, etag, index), reuse).filter(block -> block.holds(inBlock)
                && block.info().length() == info.length()).orElse(null);
        currentIndex = index;
        if (current == null) {
            return false;
        }
        statistics.hit();
        return true;
    }

    /** Copies bytes read from the store at {@link #position} into the block being filled. */
    private void keep(byte[] b, int off, int n) {
        long at = position;
        while (n > 0) {
            long index = at / blockSize;
            int inBlock = (int) (at % blockSize);
            if (index != fillIndex || inBlock != fillStart + fillLength) {
                publish();
                fillIndex = index;
                fillStart = inBlock;
                fillLength = 0;
            }
            if (fill == null) {
                fill = cache.buffer();
            }
            int k = Math.min(n, blockSize - inBlock);
            System.arraycopy(b, off, fill, inBlock, k);
            fillLength += k;
            off += k;
            n -= k;
            at += k;
            if (inBlock + k == blockSize) {
                publish();
            }
        }
    }

    private void publish() {
        if (fillLength > 0) {
            CachedBlock block;
            if (fillStart == 0 && fillLength == blockSize) {
                block = new CachedBlock(info, 0, fill, 0, blockSize); // handed over whole: no copy
                fill = null;
            } else {
                // A part of the block: its own array, and the fill buffer stays with this stream.
                block = new CachedBlock(info, fillStart, Arrays.copyOfRange(fill, fillStart, fillStart + fillLength), 0,
                        fillLength);
            }
            cache.writeLater(new BlockId(key, etag, fillIndex), block);
        }
        fillLength = 0;
        fillIndex = -1;
    }

    @Override
    public long skip(long n) throws IOException {
        if (n <= 0 || position >= end) {
            return 0;
        }
        long step = Math.min(n, end - position);
        if (remote == null) {
            position += step;
            return step;
        }
        // On the wire the bytes come anyway: read them through, so the blocks stay whole.
        byte[] scratch = new byte[(int) Math.min(step, 64 * 1024)];
        long skipped = 0;
        while (skipped < step) {
            int r = read(scratch, 0, (int) Math.min(scratch.length, step - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public int available() throws IOException {
        if (closed || position >= end) {
            return 0;
        }
        if (remote != null) {
            return remote.available();
        }
        int inBlock = (int) (position % blockSize);
        return current != null && currentIndex == position / blockSize && current.holds(inBlock)
                ? (int) Math.min(current.end() - inBlock, end - position) : 0;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        publish(); // the bytes read are the object's: a run shorter than the block is still worth keeping
        current = null;
        fill = null;
        if (remote != null) {
            remote.close();
        }
    }
}
