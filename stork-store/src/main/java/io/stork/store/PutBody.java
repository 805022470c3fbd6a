package io.stork.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The body of a put of known length. It can be opened more than once, so a failed attempt can be
 * retried from the first byte without buffering the whole body in memory.
 */
public final class PutBody {

    /** Opens the body from its first byte. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    private final Opener opener;
    private final long length;
    private final byte[] bytes;
    private final Path file;

    private PutBody(Opener opener, long length, byte[] bytes, Path file) {
        if (length < 0) {
            throw new IllegalArgumentException("negative body length: " + length);
        }
        this.opener = Objects.requireNonNull(opener, "opener");
        this.length = length;
        this.bytes = bytes;
        this.file = file;
    }

    public static PutBody of(byte[] bytes) {
        return new PutBody(() -> new ByteArrayInputStream(bytes), bytes.length, bytes, null);
    }

    public static PutBody ofFile(Path file) throws IOException {
        return new PutBody(() -> Files.newInputStream(file), Files.size(file), null, file);
    }

    public static PutBody of(Opener opener, long length) {
        return new PutBody(opener, length, null, null);
    }

    public long length() {
        return length;
    }

    public InputStream open() throws IOException {
        return opener.open();
    }

    /** The bytes, when the body is an in-memory array (lets clients avoid a copy); otherwise null. */
    public byte[] bytesOrNull() {
        return bytes;
    }

    /** The file, when the body is a whole file (lets clients send it with the file's own channel); otherwise null. */
    public Path fileOrNull() {
        return file;
    }
}
