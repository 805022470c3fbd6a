package io.stork.commit;

import io.stork.hadoop.settings.DatasetPropertyKeys;
import io.stork.hadoop.settings.StorkSettings;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.commit.CommitPoint;
import io.stork.manifest.commit.CommitSettings;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committers' side of a dataset, over Hadoop's FileSystem API only: describes a task's files as
 * manifest parts and commits a job through the one {@link CommitPoint} (docs/commit-protocol.md). Nothing
 * is deleted at commit: what a generation drops stays readable for the retention period, and vacuum
 * removes it after.
 */
final class DatasetCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(DatasetCommitter.class);
    static final String WRITER = "stork 0.1.0";
    private final FileSystem fs;
    private final Path root;
    private final String jobId;
    private final FileSystemDatasetStorage storage;
    private final CommitPoint commitPoint;
    private final boolean readersTrustManifest;

    DatasetCommitter(FileSystem fs, Path root, String jobId) {
        this.fs = fs;
        this.root = fs.makeQualified(root);
        this.jobId = jobId;
        this.storage = new FileSystemDatasetStorage(fs, this.root);
        this.readersTrustManifest = hasManifestListing(fs, this.root);
        CommitSettings settings = settings(fs.getConf(), this.root);
        // Retention only helps where readers read the manifest: elsewhere a listing would show dropped parts.
        // There, a dataset's own retention property holds over the writer's configuration.
        this.commitPoint = readersTrustManifest
                ? new CommitPoint(storage, settings, DatasetPropertyKeys.commitRule())
                : new CommitPoint(storage, settings.withRetention(Duration.ZERO));
    }

    private static boolean hasManifestListing(FileSystem fs, Path root) {
        try {
            return fs.hasPathCapability(root, io.stork.hadoop.StorkCapabilities.MANIFEST_LISTING);
        } catch (IOException e) {
            return false;
        }
    }

    /** Retention, claim timeout and inline parts, per bucket where the key names one (the one settings reader). */
    static CommitSettings settings(Configuration conf, Path root) {
        return conf == null ? CommitSettings.defaults()
                : StorkSettings.of(conf, root.toUri().getAuthority()).commitSettings();
    }

    /** The manifest part for a file this task wrote: its status costs no call on stork:// (own write). */
    ManifestPart describe(Path file, int task, long attempt) throws IOException {
        FileStatus status = fs.getFileStatus(file);
        String etag = status instanceof EtagSource source ? source.getEtag() : null;
        int tail = status instanceof io.stork.hadoop.namespace.StorkFileStatus stork ? stork.tail() : 0;
        return new ManifestPart(relativePath(fs.makeQualified(file)), status.getLen(), etag, jobId, task, attempt,
                status.getModificationTime(), null, null).withTail(tail);
    }

    String relativePath(Path qualifiedFile) {
        return relativePath(root, qualifiedFile);
    }

    static String relativePath(Path root, Path qualifiedFile) {
        String rootText = root.toUri().getPath();
        String fileText = qualifiedFile.toUri().getPath();
        String prefix = rootText.endsWith("/") ? rootText : rootText + "/";
        if (!fileText.startsWith(prefix)) {
            throw new IllegalArgumentException(qualifiedFile + " is not inside the dataset " + root);
        }
        return fileText.substring(prefix.length());
    }

    /** The current manifest, if the dataset has one (1 GET). */
    /**
     * Whether the store arbitrates between commits (claims by conditional create): a commit that read
     * before another then loses its claim and reads again, rather than overwriting it.
     */
    boolean storeArbitratesCommits() {
        return storage.createGuarantee() != io.stork.manifest.commit.DatasetStorage.CreateGuarantee.NONE;
    }

    Optional<Manifest> readManifest() throws IOException {
        return storage.readManifest();
    }

    /**
     * Commits the job.
     *
     * @param written    the parts of the committed task attempts
     * @param plan       what the job replaces
     * @param knownEmpty true when the output path was seen empty at job start, so no previous state
     *                   needs reading (saves the GET and LIST of a new dataset)
     * @param createdAt  when the job started
     * @return the manifest written
     */
    Manifest commit(List<ManifestPart> written, ReplacePlan plan, boolean knownEmpty, Instant createdAt)
            throws IOException {
        return commit(written, plan, knownEmpty, createdAt, java.util.Map.of());
    }

    /**
     * Commits a relayout job that read generation {@code source}: its parts replace exactly the parts of that
     * generation, and parts committed since are kept ({@link RelayoutPlan}). The manifest read here serves as
     * the commit's first round (no extra call).
     */
    Manifest commitRelayout(List<ManifestPart> written, long source, Instant createdAt,
                            java.util.Map<String, String> properties) throws IOException {
        Manifest current = readManifest().orElseThrow(() -> new IOException("no Stork manifest in " + root
                + ": a relayout rewrites a committed generation"));
        List<ManifestPart> read;
        try {
            read = current.partsAt(source);
        } catch (IllegalArgumentException e) {
            throw new IOException(root + ": the relayout read generation " + source + ", which " + e.getMessage());
        }
        try {
            return commitPoint.commit(new CommitPoint.Request(jobId, WRITER, written, RelayoutPlan.of(source, read),
                    false, createdAt, current, properties));
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** As {@link #commit(List, ReplacePlan, boolean, Instant)}, setting dataset properties. */
    Manifest commit(List<ManifestPart> written, ReplacePlan plan, boolean knownEmpty, Instant createdAt,
                    java.util.Map<String, String> properties) throws IOException {
        Manifest manifest = commitPoint.commit(new CommitPoint.Request(jobId, WRITER, written, plan, knownEmpty,
                createdAt, null, properties));
        if (!readersTrustManifest) {
            purge(manifest);
        } else if (fs instanceof io.stork.hadoop.StorkFileSystem stork) {
            stork.datasets().committed(root, manifest); // the next write here reads the dataset's settings with no call
        }
        return manifest;
    }

    /**
     * On a file system whose readers list the directory (local, HDFS), what the new generation dropped is
     * deleted after the commit, as before retention existed (best effort: the commit stands).
     */
    private void purge(Manifest manifest) {
        List<Path> dropped = new java.util.ArrayList<>();
        for (io.stork.manifest.RemovedPart removed : manifest.removed()) {
            if (removed.removedIn() == manifest.generation()) {
                dropped.add(new Path(root, removed.part().path()));
            }
        }
        if (dropped.isEmpty()) {
            return;
        }
        try {
            deleteAll(fs, root, dropped);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: committed; {} replaced objects were not all deleted ({})", root, dropped.size(), e.toString());
        }
    }

    /**
     * Restores generation {@code generation}: a new generation naming exactly its parts (those dropped
     * since come back; those added since are dropped, and kept for the retention period). Nothing is
     * copied. Fails if the generation is no longer readable.
     */
    Manifest restore(long generation) throws IOException {
        Manifest current = readManifest().orElseThrow(() -> new IOException("no Stork manifest in " + root
                + ": nothing to restore"));
        // Where readers list (retention zero), dropped parts were deleted at commit whatever the dataset keeps.
        Duration retention = readersTrustManifest
                ? DatasetPropertyKeys.retention(current.properties(), commitPoint.settings().retention())
                : commitPoint.settings().retention();
        java.time.Instant expiry = java.time.Instant.now().minus(retention);
        List<ManifestPart> target;
        try {
            target = current.partsAt(generation);
        } catch (IllegalArgumentException e) {
            throw new IOException(root + ": " + e.getMessage());
        }
        for (io.stork.manifest.RemovedPart removed : current.removed()) {
            if (removed.namedBy(generation) && removed.removedAt().isBefore(expiry)) {
                throw new IOException(root + ": generation " + generation + " is older than the retention period; "
                        + "its part " + removed.part().path() + " may have been vacuumed");
            }
        }
        java.util.Set<String> targetPaths = new java.util.HashSet<>();
        target.forEach(p -> targetPaths.add(p.path()));
        java.util.Set<String> currentPaths = new java.util.HashSet<>();
        current.parts().forEach(p -> currentPaths.add(p.path()));
        List<ManifestPart> comeBack = new java.util.ArrayList<>();
        for (ManifestPart part : target) {
            if (!currentPaths.contains(part.path())) {
                comeBack.add(part);
            }
        }
        io.stork.manifest.commit.MergePlan plan = new io.stork.manifest.commit.MergePlan() {
            @Override
            public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
                return previous.stream().filter(p -> targetPaths.contains(p.path())).toList();
            }

            @Override
            public Manifest.Operation operation() {
                return Manifest.Operation.RESTORE;
            }
        };
        return commitPoint.commit(new CommitPoint.Request(jobId, WRITER, comeBack, plan, false, java.time.Instant.now(),
                current));
    }

    /**
     * Commits a generation naming the same parts with the dataset's properties changed ({@code set}'s
     * values, {@code unset}'s names removed): no data is read or rewritten. Recorded as a maintenance
     * generation (the manifest format has no operation of its own for it).
     */
    Manifest changeProperties(Map<String, String> set, java.util.Collection<String> unset) throws IOException {
        Manifest current = readManifest().orElseThrow(() -> new IOException("no Stork manifest in " + root
                + ": properties belong to a committed dataset"));
        Map<String, String> changes = new java.util.TreeMap<>();
        set.forEach((k, v) -> {
            String key = DatasetPropertyKeys.normalize(k);
            DatasetPropertyKeys.check(key, v);
            DatasetProperties.checkSkippingKey(key);
            changes.put(key, v);
        });
        for (String k : unset) {
            String key = DatasetPropertyKeys.normalize(k);
            if (!current.properties().containsKey(key)) {
                throw new IllegalArgumentException(root + " has no dataset property " + key + " to unset (it has "
                        + (current.properties().isEmpty() ? "none" : String.join(", ", current.properties().keySet()))
                        + ")");
            }
            DatasetPropertyKeys.checkRemovable(key);
            changes.put(key, ""); // an empty value removes the property
        }
        Manifest manifest = commitPoint.commit(new CommitPoint.Request(jobId, WRITER, List.of(),
                io.stork.manifest.commit.MergePlan.MAINTENANCE, false, Instant.now(), current, changes));
        if (fs instanceof io.stork.hadoop.StorkFileSystem stork) {
            stork.datasets().committed(root, manifest); // this file system's next write uses the new properties
        }
        return manifest;
    }

    /**
     * Deletes the parts of a job that failed, unless the dataset's manifest may name them: a commit whose
     * answer was lost can have gone through although the job was told otherwise.
     */
    void deleteUncommitted(List<Path> files) {
        if (files.isEmpty()) {
            return;
        }
        if (commitPoint.mayName(jobId)) {
            LOG.warn("Job {} aborted, but the manifest of {} names it (or could not be read): its {} parts are "
                    + "kept", jobId, root, files.size());
            return;
        }
        try {
            deleteAll(fs, root, files);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Job {} aborted; its parts under {} were not all deleted ({}): no manifest names them",
                    jobId, root, e.toString());
        }
    }

    /**
     * Commits a generation naming the same parts that fences task attempts ({@link
     * io.stork.manifest.commit.Fences}): none of their parts can be committed after it. Maintenance
     * does this before deleting their parts. {@code knownPrevious}: the manifest just read, or null to read it.
     */
    Manifest fence(java.util.Set<String> attempts, Manifest knownPrevious) throws IOException {
        return commitPoint.commit(CommitPoint.Request.fence(jobId, WRITER, attempts, knownPrevious));
    }

    /** Deletes files through Hadoop's bulk delete, a page at a time. Returns the number of failures. */
    static int deleteAll(FileSystem fs, Path base, List<Path> files) throws IOException {
        return deleteAll(fs, base, files, done -> { });
    }

    /** As {@link #deleteAll(FileSystem, Path, List)}, telling {@code afterPage} how many were sent so far. */
    static int deleteAll(FileSystem fs, Path base, List<Path> files, java.util.function.IntConsumer afterPage)
            throws IOException {
        int failures = 0;
        try (BulkDelete bulk = fs.createBulkDelete(base)) {
            int page = bulk.pageSize();
            for (int from = 0; from < files.size(); from += page) {
                List<Map.Entry<Path, String>> failed = bulk.bulkDelete(files.subList(from, Math.min(files.size(), from + page)));
                failures += failed.size();
                for (Map.Entry<Path, String> f : failed) {
                    LOG.warn("could not delete {}: {}", f.getKey(), f.getValue());
                }
                afterPage.accept(Math.min(files.size(), from + page));
            }
        }
        return failures;
    }
}
