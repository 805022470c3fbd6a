package io.stork.spark.layout;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A small file of a dataset's internal directory ({@code _stork/layout/}: its model, its query history), read
 * whole (one GET on Stork) and replaced whole (one PUT). Readers never list {@code _stork/}.
 */
public final class InternalFile {

    private InternalFile() {
    }

    /** The file's bytes, or empty if there is none. */
    public static Optional<byte[]> read(Path location, Configuration conf) throws IOException {
        FileSystem fs = location.getFileSystem(conf);
        try (InputStream in = fs.open(location)) {
            return Optional.of(in.readAllBytes());
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Replaces the file with {@code bytes}; returns its qualified path. */
    public static Path write(Path location, Configuration conf, byte[] bytes) throws IOException {
        FileSystem fs = location.getFileSystem(conf);
        try (OutputStream out = fs.create(location, true)) {
            out.write(bytes);
        }
        return fs.makeQualified(location);
    }
}
