package io.stork.manifest.segment;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads the binary forms of segments and statistics blocks from a byte array: variable-length integers
 * (zigzag), UTF-8 strings with their length, big-endian fixed-width values. Lengths are checked against
 * what is left, so damaged input fails with an IOException, never with a huge allocation. Not
 * thread-safe; one per reader.
 */
public final class ByteCursor {

    private final byte[] bytes;
    private int position;
    private final int end;

    public ByteCursor(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    public ByteCursor(byte[] bytes, int from, int length) {
        this.bytes = bytes;
        this.position = from;
        this.end = from + length;
    }

    public int remaining() {
        return end - position;
    }

    public int position() {
        return position;
    }

    public byte readByte() throws IOException {
        if (position >= end) {
            throw new EOFException("cut short");
        }
        return bytes[position++];
    }

    public int readInt() throws IOException {
        need(4);
        int v = ((bytes[position] & 0xFF) << 24) | ((bytes[position + 1] & 0xFF) << 16)
                | ((bytes[position + 2] & 0xFF) << 8) | (bytes[position + 3] & 0xFF);
        position += 4;
        return v;
    }

    public long readLong() throws IOException {
        long high = readInt() & 0xFFFFFFFFL;
        return (high << 32) | (readInt() & 0xFFFFFFFFL);
    }

    public double readDouble() throws IOException {
        return Double.longBitsToDouble(readLong());
    }

    public long readVarLong() throws IOException {
        long zz = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= end) {
                throw new EOFException("cut short");
            }
            int b = bytes[position++];
            zz |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (zz >>> 1) ^ -(zz & 1);
            }
        }
        throw new IOException("varint longer than 64 bits");
    }

    /** A string written as its UTF-8 length and bytes. */
    public String readString() throws IOException {
        return readString(readVarLong());
    }

    /** A string written as its UTF-8 length + 1 (0: null) and bytes. */
    public String readNullableString() throws IOException {
        long n = readVarLong();
        return n == 0 ? null : readString(n - 1);
    }

    private String readString(long length) throws IOException {
        if (length < 0 || length > remaining()) {
            throw new IOException("a string of " + length + " bytes where " + remaining() + " are left");
        }
        String s = new String(bytes, position, (int) length, StandardCharsets.UTF_8);
        position += (int) length;
        return s;
    }

    /** The next {@code length} bytes, copied. */
    public byte[] readBytes(long length) throws IOException {
        if (length < 0 || length > remaining()) {
            throw new IOException(length + " bytes where " + remaining() + " are left");
        }
        byte[] b = java.util.Arrays.copyOfRange(bytes, position, position + (int) length);
        position += (int) length;
        return b;
    }

    private void need(int n) throws IOException {
        if (remaining() < n) {
            throw new EOFException("cut short");
        }
    }
}
