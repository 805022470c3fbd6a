package io.stork.store.cache;

import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * What a block file holds: a contiguous run of one block's bytes (not necessarily all of it: a read
 * keeps what it fetched, so a footer read caches the footer, not the block around it) and the facts a
 * stream needs to be served from the cache without a call (the object's length, modification time and
 * user metadata).
 *
 * <p>On disk: magic, format, object length, modification time, user metadata, the run's offset in the
 * block and its length, the bytes, and a CRC32C of everything before it. A file that is short, long or
 * fails the CRC is not a block: it is dropped and read from the store. The bytes are written and read
 * without copies beyond the file's own (the cache is on the read path of cold scans too).
 *
 * @param info   the whole object's facts as the GET that fetched the bytes returned them (key and ETag
 *               are the block's)
 * @param offset offset in the block of the run's first byte
 * @param bytes  holds the run at {@code bytes[start, start + length)}
 */
record CachedBlock(ObjectInfo info, int offset, byte[] bytes, int start, int length) {

    private static final int MAGIC = 0x53544B42; // "STKB"
    private static final int FORMAT = 1;

    /** Whether this block holds the byte at {@code inBlock} (an offset in the block). */
    boolean holds(int inBlock) {
        return inBlock >= offset && inBlock < offset + length;
    }

    int end() {
        return offset + length;
    }

    /** Copies {@code n} bytes from offset {@code inBlock} of the block into {@code b}. */
    void copy(int inBlock, byte[] b, int off, int n) {
        System.arraycopy(bytes, start + inBlock - offset, b, off, n);
    }

    /**
     * This block and {@code other} (of the same block) as one run when they overlap or touch; otherwise
     * the longer of the two (a block keeps one run: the bytes are the same wherever they overlap).
     */
    CachedBlock union(CachedBlock other) {
        if (other.offset > end() || offset > other.end()) {
            return other.length >= length ? other : this;
        }
        int from = Math.min(offset, other.offset);
        int to = Math.max(end(), other.end());
        if (from == offset && to == end()) {
            return this;
        }
        if (from == other.offset && to == other.end()) {
            return other;
        }
        byte[] merged = new byte[to - from];
        System.arraycopy(bytes, start, merged, offset - from, length);
        System.arraycopy(other.bytes, other.start, merged, other.offset - from, other.length);
        return new CachedBlock(info, from, merged, 0, merged.length);
    }

    /** Writes the block file to {@code file}: header, the run straight from its array, checksum. Returns its size. */
    long writeTo(Path file) throws IOException {
        byte[] header = header();
        CRC32C crc = new CRC32C();
        crc.update(header);
        crc.update(bytes, start, length);
        ByteBuffer trailer = ByteBuffer.allocate(4).putInt((int) crc.getValue()).flip();
        ByteBuffer[] parts = {ByteBuffer.wrap(header), ByteBuffer.wrap(bytes, start, length), trailer};
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long total = header.length + (long) length + 4;
            long written = 0;
            while (written < total) {
                written += out.write(parts);
            }
            return total;
        }
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private byte[] header() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeLong(info.length());
            Instant modified = info.lastModified();
            out.writeLong(modified == null ? Long.MIN_VALUE : modified.getEpochSecond());
            out.writeInt(modified == null ? 0 : modified.getNano());
            out.writeInt(info.userMetadata().size());
            for (Map.Entry<String, String> e : new TreeMap<>(info.userMetadata()).entrySet()) {
                string(out, e.getKey());
                string(out, e.getValue());
            }
            out.writeInt(offset);
            out.writeInt(length);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory: cannot happen
        }
    }

    /**
     * The block in {@code file[0, size)}, or throws {@link IOException} if it is not one, whole and intact.
     * The block's bytes stay in {@code file} (no copy).
     */
    static CachedBlock decode(byte[] file, int size, int blockSize, ObjectKey key, String etag) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(file, 0, size);
        try {
            if (in.getInt() != MAGIC || in.getInt() != FORMAT) {
                throw new IOException("not a block file");
            }
            long objectLength = in.getLong();
            long seconds = in.getLong();
            int nanos = in.getInt();
            int entries = in.getInt();
            if (entries < 0 || entries > 1000 || objectLength < 0 || nanos < 0 || nanos > 999_999_999) {
                throw new IOException("block file of the wrong shape");
            }
            Map<String, String> metadata = new HashMap<>();
            for (int i = 0; i < entries; i++) {
                metadata.put(utf(in), utf(in));
            }
            int offset = in.getInt();
            int length = in.getInt();
            int start = in.position();
            if (offset < 0 || length <= 0 || (long) offset + length > blockSize || in.remaining() != length + 4L) {
                throw new IOException("block file of the wrong shape");
            }
            CRC32C crc = new CRC32C();
            crc.update(file, 0, size - 4);
            if ((int) crc.getValue() != ByteBuffer.wrap(file, size - 4, 4).getInt()) {
                throw new IOException("block file fails its checksum");
            }
            Instant modified = seconds == Long.MIN_VALUE ? null : Instant.ofEpochSecond(seconds, nanos);
            return new CachedBlock(new ObjectInfo(key, objectLength, etag, modified, metadata), offset, file, start,
                    length);
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new IOException("block file too short or of the wrong shape");
        }
    }

    private static String utf(ByteBuffer in) throws IOException {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IOException("block file of the wrong shape");
        }
        String s = new String(in.array(), in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }
}
