package io.stork.commit;

import io.stork.hadoop.StorkCapabilities;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.manifest.commit.CreateConflictException;
import io.stork.manifest.commit.DatasetStorage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** A dataset's commit storage over Hadoop's FileSystem API: stork://, and any other file system. */
final class FileSystemDatasetStorage implements DatasetStorage {

    private final FileSystem fs;
    private final Path root;

    FileSystemDatasetStorage(FileSystem fs, Path qualifiedRoot) {
        this.fs = fs;
        this.root = qualifiedRoot;
    }

    @Override
    public String location() {
        return root.toString();
    }

    Path manifestPath() {
        return new Path(root, PartNames.MANIFEST);
    }

    private Path claimPath(long generation) {
        return new Path(root, PartNames.INTERNAL_DIRECTORY + "/generation-" + generation);
    }

    /**
     * stork:// says what its store guarantees; other file systems without manifest listings (HDFS, local)
     * create without overwrite atomically, or nearly so (the local file system checks, then creates).
     */
    @Override
    public CreateGuarantee createGuarantee() {
        try {
            if (fs.hasPathCapability(root, StorkCapabilities.ATOMIC_CREATE)) {
                return CreateGuarantee.ATOMIC;
            }
            if (fs.hasPathCapability(root, StorkCapabilities.CONDITIONAL_CREATE)) {
                return CreateGuarantee.PER_REQUEST;
            }
            return fs.hasPathCapability(root, StorkCapabilities.MANIFEST_LISTING) ? CreateGuarantee.NONE
                    : CreateGuarantee.ATOMIC;
        } catch (IOException e) {
            return CreateGuarantee.NONE;
        }
    }

    @Override
    public Optional<Manifest> readManifest() throws IOException {
        try (InputStream in = fs.open(manifestPath())) {
            return ManifestCodec.readIfStork(in, manifestPath().toString(), segments(fs, root));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public void writeManifest(byte[] json, boolean createOnly) throws IOException {
        write(manifestPath(), json, !createOnly);
    }

    @Override
    public void writeSegment(String name, byte[] bytes) throws IOException {
        write(new Path(root, io.stork.manifest.segment.SegmentSource.DIRECTORY + "/" + name), bytes, true);
    }

    /** The segments of the dataset at {@code root}, read through {@code fs}. */
    static io.stork.manifest.segment.SegmentSource segments(FileSystem fs, Path root) {
        return io.stork.manifest.segment.SegmentSource.of(relative -> fs.open(new Path(root, relative)),
                root.toString());
    }

    @Override
    public void createClaim(long generation, byte[] content) throws IOException {
        write(claimPath(generation), content, false);
    }

    @Override
    public Optional<byte[]> readClaim(long generation) throws IOException {
        try (InputStream in = fs.open(claimPath(generation))) {
            return Optional.of(in.readAllBytes());
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** One PUT on stork:// ("create performance": no existence probe; the store checks, where it can). */
    private void write(Path path, byte[] content, boolean overwrite) throws IOException {
        try (OutputStream out = (OutputStream) fs.createFile(path).overwrite(overwrite).recursive()
                .opt("fs.option.create.performance", true).build()) {
            out.write(content);
        } catch (FileAlreadyExistsException e) {
            throw new CreateConflictException(path + " exists", e);
        }
    }

    @Override
    public List<ManifestPart> plainFiles() throws IOException {
        List<ManifestPart> adopted = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> files;
        try {
            files = fs.listFiles(root, true);
        } catch (FileNotFoundException e) {
            return adopted;
        }
        while (files.hasNext()) {
            LocatedFileStatus file = files.next();
            String relative = DatasetCommitter.relativePath(root, file.getPath());
            if (PartNames.isHidden(relative) || PartNames.isAttemptNamed(file.getPath().getName())) {
                continue;
            }
            String etag = file instanceof EtagSource source ? source.getEtag() : null;
            adopted.add(new ManifestPart(relative, file.getLen(), etag, "adopted", 0, 0,
                    file.getModificationTime(), null, null));
        }
        return adopted;
    }
}
