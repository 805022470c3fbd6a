package io.stork.hadoop.namespace;

import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** A file's status with the store's entity tag, where the call that produced it returned one. */
public final class StorkFileStatus extends FileStatus implements EtagSource {

    private final String etag;

    public StorkFileStatus(long length, long blockSize, long modified, Path path, String etag) {
        super(length, false, 1, blockSize, modified, path);
        this.etag = etag;
    }

    @Override
    public String getEtag() {
        return etag;
    }

    // FileStatus equality is by path; the ETag adds no identity.
    @Override
    public boolean equals(Object o) {
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
