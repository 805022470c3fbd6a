package io.stork.manifest.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The few storage operations the commit point needs on one dataset directory: its manifest
 * ({@code _SUCCESS}), its generation claims ({@code _stork/generation-<n>}) and the plain files of a
 * directory no Stork job committed yet. Implemented over Hadoop's FileSystem API (the commit protocols)
 * and over the object store directly (the file system's emulation of the classic committer).
 *
 * <p>Every write may fail after the storage applied it (a lost answer): the commit point settles such
 * failures by reading back, so implementations need not.
 */
public interface DatasetStorage {

    /** How far a create-if-absent can be trusted when two run at once. */
    enum CreateGuarantee {
        /** No create-if-absent at all (an S3 API without conditional writes): last writer wins. */
        NONE,
        /** Each create is checked on its own: two in flight at once can both pass (Swift). */
        PER_REQUEST,
        /** Exactly one of concurrent creates succeeds (S3 conditional writes, HDFS). */
        ATOMIC
    }

    /** The dataset, for messages ({@code stork://bucket/path}). */
    String location();

    CreateGuarantee createGuarantee();

    /**
     * The current manifest: empty when there is none (no {@code _SUCCESS}, Hadoop's empty marker, another
     * committer's JSON); {@link io.stork.manifest.CorruptManifestException} when it is broken.
     */
    Optional<Manifest> readManifest() throws IOException;

    /**
     * Writes the manifest.
     *
     * @param createOnly fail with {@link CreateConflictException} if a manifest exists (a dataset's first
     *                   generation), where the storage can tell
     */
    void writeManifest(byte[] json, boolean createOnly) throws IOException;

    /**
     * Writes segment {@code name} ({@code <dataset>/_stork/segments/<name>}), before the manifest that first
     * names it. A segment no manifest names (its commit failed) is a stray for vacuum.
     */
    void writeSegment(String name, byte[] bytes) throws IOException;

    /** Creates claim {@code generation} with {@code content} if absent, else {@link CreateConflictException}. */
    void createClaim(long generation, byte[] content) throws IOException;

    /** The content of claim {@code generation}, or empty if there is none. */
    Optional<byte[]> readClaim(long generation) throws IOException;

    /**
     * The plain files already in a directory no Stork job committed to (written by another tool), which
     * the first commit adopts; attempt parts of jobs that never committed and hidden files excluded.
     */
    List<ManifestPart> plainFiles() throws IOException;
}
