package io.stork.hadoop;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.Path;

/**
 * {@code createFile(path)}: Hadoop's builder, honouring {@code fs.option.create.performance}: with it, even
 * a create without overwrite makes no existence check (1 PUT, no HEAD), for callers such as a committer
 * that write unique names and know nothing is there. Where the API honours conditional creates (Swift),
 * such a create without overwrite is still atomic: the PUT carries If-None-Match and close() fails with
 * FileAlreadyExistsException if an object appeared. Unknown mandatory options are refused.
 */
final class StorkCreateFileBuilder extends FSDataOutputStreamBuilder<FSDataOutputStream, StorkCreateFileBuilder> {

    static final String CREATE_PERFORMANCE = "fs.option.create.performance";

    private final StorkFileSystem fs;

    StorkCreateFileBuilder(StorkFileSystem fs, Path path) {
        super(fs, path);
        this.fs = fs;
    }

    @Override
    public StorkCreateFileBuilder getThisBuilder() {
        return this;
    }

    @Override
    public FSDataOutputStream build() throws IOException {
        for (String key : getMandatoryKeys()) {
            if (!key.equals(CREATE_PERFORMANCE) && !key.startsWith("fs.option.create.")) {
                throw new IllegalArgumentException("unknown mandatory option " + key + " for " + getPath());
            }
        }
        EnumSet<CreateFlag> flags = getFlags();
        if (flags.contains(CreateFlag.APPEND)) {
            throw new UnsupportedOperationException("append is not supported: objects cannot be appended to ("
                    + getPath() + ")");
        }
        boolean performance = getOptions().getBoolean(CREATE_PERFORMANCE, false);
        boolean overwrite = flags.contains(CreateFlag.OVERWRITE);
        if (performance && isRecursive()) {
            // No existence check; without OVERWRITE the create is still conditional where the API honours it.
            return fs.createObject(getPath(), overwrite, false);
        }
        overwrite |= performance;
        if (!isRecursive()) {
            return fs.createNonRecursive(getPath(), getPermission(), overwrite
                    ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE) : EnumSet.of(CreateFlag.CREATE),
                    getBufferSize(), getReplication(), getBlockSize(), getProgress());
        }
        return fs.create(getPath(), getPermission(), overwrite, getBufferSize(), getReplication(), getBlockSize(),
                getProgress());
    }
}
