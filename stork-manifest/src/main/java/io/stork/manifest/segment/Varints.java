package io.stork.manifest.segment;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The writing side of {@link ByteCursor}: zig-zag variable-length integers and UTF-8 strings, as segments
 * and statistics blocks store them.
 */
public final class Varints {

    private Varints() {
    }

    /** {@code v} zig-zag encoded, 7 bits a byte (small magnitudes of either sign take one or two bytes). */
    public static void writeVarLong(DataOutputStream out, long v) throws IOException {
        long zz = (v << 1) ^ (v >> 63);
        while ((zz & ~0x7FL) != 0) {
            out.writeByte((int) ((zz & 0x7F) | 0x80));
            zz >>>= 7;
        }
        out.writeByte((int) zz);
    }

    /** A string as its UTF-8 length and bytes ({@link ByteCursor#readString()}). */
    public static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeVarLong(out, b.length);
        out.write(b);
    }

    /** A string, or null, as its UTF-8 length + 1 (0: null) and bytes ({@link ByteCursor#readNullableString()}). */
    public static void writeNullableString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            writeVarLong(out, 0);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeVarLong(out, b.length + 1L);
        out.write(b);
    }
}
