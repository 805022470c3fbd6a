package io.stork.store.cache;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import java.time.Instant;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * What a block file holds: a contiguous run of one block's bytes (not necessarily all of it: a read
 * keeps what it fetched, so a footer read caches the footer, not the block around it) and the facts a
 * stream needs to be served from the cache without a call (the object's length and modification time).
 *
 * <p>On disk: magic, format, object length, modification time, user metadata, the run's offset in the
 * block and its length, the bytes, and a CRC32C of everything before it. A file that is short, long or fails the CRC
 * is not a block: it is dropped and read from the store.
 *
 * @param info   the whole object's facts as the GET that fetched the bytes returned them (length,
 *               modification time, user metadata; key and ETag are the block's)
 * @param offset offset in the block of {@code data[0]}
 * @param data   the bytes held ({@code data.length} of them)
 */
record CachedBlock(ObjectInfo info, int offset, byte[] data) {

    private static final int MAGIC = 0x53544B42; // "STKB"
    private static final int FORMAT = 1;
    /** Bytes of a file besides the data and the metadata. */
    static final int OVERHEAD = 4 + 4 + 8 + 8 + 4 + 4 + 4 + 4 + 4;

    /** Whether this block holds the byte at {@code inBlock} (an offset in the block). */
    boolean holds(int inBlock) {
        return inBlock >= offset && inBlock < offset + data.length;
    }

    int end() {
        return offset + data.length;
    }

    /**
     * This block and {@code other} (of the same block) as one run when they overlap or touch; otherwise
     * the longer of the two (a block keeps one run: the bytes are the same wherever they overlap).
     */
    CachedBlock union(CachedBlock other) {
        if (other.offset > end() || offset > other.end()) {
            return other.data.length >= data.length ? other : this;
        }
        int start = Math.min(offset, other.offset);
        int end = Math.max(end(), other.end());
        if (start == offset && end == end()) {
            return this;
        }
        if (start == other.offset && end == other.end()) {
            return other;
        }
        byte[] merged = new byte[end - start];
        System.arraycopy(data, 0, merged, offset - start, data.length);
        System.arraycopy(other.data, 0, merged, other.offset - start, other.data.length);
        return new CachedBlock(info, start, merged);
    }

    byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(data.length + OVERHEAD);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeLong(info.length());
            Instant modified = info.lastModified();
            out.writeLong(modified == null ? Long.MIN_VALUE : modified.getEpochSecond());
            out.writeInt(modified == null ? 0 : modified.getNano());
            out.writeInt(info.userMetadata().size());
            for (Map.Entry<String, String> e : new java.util.TreeMap<>(info.userMetadata()).entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.writeInt(offset);
            out.writeInt(data.length);
            out.write(data);
            CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray(), 0, bytes.size());
            out.writeInt((int) crc.getValue());
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory: cannot happen
        }
    }

    /** The block in {@code file}, or throws {@link IOException} if it is not one, whole and intact. */
    static CachedBlock decode(byte[] file, int blockSize, ObjectKey key, String etag) throws IOException {
        if (file.length < OVERHEAD) {
            throw new IOException("block file too short");
        }
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(file));
        if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
            throw new IOException("not a block file");
        }
        long objectLength = in.readLong();
        long seconds = in.readLong();
        int nanos = in.readInt();
        int entries = in.readInt();
        if (entries < 0 || entries > 1000) {
            throw new IOException("block file of the wrong shape");
        }
        Map<String, String> metadata = new java.util.HashMap<>();
        for (int i = 0; i < entries; i++) {
            metadata.put(in.readUTF(), in.readUTF());
        }
        int offset = in.readInt();
        int length = in.readInt();
        int header = file.length - in.available();
        if (offset < 0 || length <= 0 || (long) offset + length > blockSize || in.available() != length + 4
                || objectLength < 0 || nanos < 0 || nanos > 999_999_999) {
            throw new IOException("block file of the wrong shape");
        }
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 4);
        int expected = ((file[file.length - 4] & 0xFF) << 24) | ((file[file.length - 3] & 0xFF) << 16)
                | ((file[file.length - 2] & 0xFF) << 8) | (file[file.length - 1] & 0xFF);
        if ((int) crc.getValue() != expected) {
            throw new IOException("block file fails its checksum");
        }
        byte[] data = java.util.Arrays.copyOfRange(file, header, header + length);
        Instant modified = seconds == Long.MIN_VALUE ? null : Instant.ofEpochSecond(seconds, nanos);
        return new CachedBlock(new ObjectInfo(key, objectLength, etag, modified, metadata), offset, data);
    }
}
