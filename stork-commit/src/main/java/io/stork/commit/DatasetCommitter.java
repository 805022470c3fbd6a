package io.stork.commit;

import io.stork.hadoop.StorkCapabilities;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job-commit half of the protocol, over Hadoop's FileSystem API only (docs/commit-protocol.md):
 * read the dataset's previous manifest when there may be one, merge the job's parts into it as the job's
 * {@link ReplacePlan} says, write the new manifest as {@code _SUCCESS} in one PUT, then delete what the
 * new generation replaced. Concurrent commits: where the store has atomic creates, each generation after
 * the first is claimed by creating {@code _stork/generation-<n>} without overwrite, so two jobs never both
 * write generation n; the loser re-reads and merges again.
 */
final class DatasetCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(DatasetCommitter.class);
    static final String WRITER = "stork 0.1.0";
    private static final int MAX_COMMIT_ATTEMPTS = 10;
    private static final Duration WAIT_FOR_WINNER = Duration.ofSeconds(30);
    /** How long a claim must survive before it counts (see {@link #claim}). */
    static final Duration CLAIM_SETTLE = Duration.ofMillis(500);

    private final FileSystem fs;
    private final Path root;
    private final String jobId;

    DatasetCommitter(FileSystem fs, Path root, String jobId) {
        this.fs = fs;
        this.root = fs.makeQualified(root);
        this.jobId = jobId;
    }

    Path manifestPath() {
        return new Path(root, PartNames.MANIFEST);
    }

    /** The manifest part for a file this task wrote: its status costs no call on stork:// (own write). */
    ManifestPart describe(Path file, int task, long attempt) throws IOException {
        FileStatus status = fs.getFileStatus(file);
        String etag = status instanceof EtagSource source ? source.getEtag() : null;
        return new ManifestPart(relativePath(fs.makeQualified(file)), status.getLen(), etag, jobId, task, attempt,
                status.getModificationTime(), null, null);
    }

    String relativePath(Path qualifiedFile) {
        String rootText = root.toUri().getPath();
        String fileText = qualifiedFile.toUri().getPath();
        String prefix = rootText.endsWith("/") ? rootText : rootText + "/";
        if (!fileText.startsWith(prefix)) {
            throw new IllegalArgumentException(qualifiedFile + " is not inside the dataset " + root);
        }
        return fileText.substring(prefix.length());
    }

    /** The current manifest, if the dataset has one (1 GET). */
    Optional<Manifest> readManifest() throws IOException {
        try (InputStream in = fs.open(manifestPath())) {
            return ManifestCodec.readIfStork(in, manifestPath().toString());
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * Commits the job.
     *
     * @param written        the parts of the committed task attempts
     * @param plan           what the job replaces
     * @param knownEmpty     true when the output path was seen empty at job start, so no previous state
     *                       needs reading (saves the GET and LIST of a new dataset)
     * @param createdAt      when the job started
     * @return the manifest written
     */
    Manifest commit(List<ManifestPart> written, ReplacePlan plan, boolean knownEmpty, Instant createdAt)
            throws IOException {
        boolean mayBeEmpty = knownEmpty;
        for (int attempt = 1; ; attempt++) {
            Previous previous = mayBeEmpty ? Previous.NONE : readPrevious();
            List<ManifestPart> kept = plan.kept(previous.parts(), written);
            List<ManifestPart> parts = new ArrayList<>(kept.size() + written.size());
            parts.addAll(kept);
            parts.addAll(written);
            long generation = previous.manifest().map(m -> m.generation() + 1).orElse(1L);
            Manifest manifest = new Manifest(Manifest.CURRENT_VERSION, WRITER, jobId, generation,
                    operation(previous, plan), createdAt, Instant.now(), parts);
            try {
                write(manifest);
                purge(previous.parts(), kept);
                return manifest;
            } catch (FileAlreadyExistsException conflict) {
                if (knownEmpty && generation == 1) {
                    throw new ConcurrentCommitException("output " + root + " was created by another job while this "
                            + "job " + jobId + " ran (it was empty when the job started); this job's parts were "
                            + "not committed");
                }
                if (attempt >= MAX_COMMIT_ATTEMPTS) {
                    throw new ConcurrentCommitException("dataset " + root + ": generation " + generation
                            + " was committed by another job " + attempt + " times in a row; job " + jobId
                            + " gave up (its parts are not committed)");
                }
                LOG.info("{}: generation {} was committed concurrently by another job; merging again", root, generation);
                waitForGeneration(generation);
                pause(java.util.concurrent.ThreadLocalRandom.current().nextLong(200)); // out of lockstep
                mayBeEmpty = false;
            }
        }
    }

    private static Manifest.Operation operation(Previous previous, ReplacePlan plan) {
        if (previous.manifest().isEmpty() && previous.parts().isEmpty()) {
            return Manifest.Operation.CREATE;
        }
        if (plan.everything() || !plan.directories().isEmpty()) {
            return Manifest.Operation.OVERWRITE;
        }
        return plan.writtenPartitions() ? Manifest.Operation.DYNAMIC_PARTITION_OVERWRITE : Manifest.Operation.APPEND;
    }

    /** The previous manifest, or, for a directory without one, the plain files already there (adopted). */
    private Previous readPrevious() throws IOException {
        Optional<Manifest> manifest = readManifest();
        if (manifest.isPresent()) {
            return new Previous(manifest, manifest.get().parts());
        }
        return new Previous(Optional.empty(), adoptPlainFiles());
    }

    /**
     * Files in a directory no Stork job committed (written by another tool) are part of the dataset and
     * stay so; attempt parts of jobs that never committed, and hidden files, are not.
     */
    private List<ManifestPart> adoptPlainFiles() throws IOException {
        List<ManifestPart> adopted = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> files;
        try {
            files = fs.listFiles(root, true);
        } catch (FileNotFoundException e) {
            return adopted;
        }
        while (files.hasNext()) {
            LocatedFileStatus file = files.next();
            String relative = relativePath(file.getPath());
            if (isHidden(relative) || PartNames.isAttemptNamed(file.getPath().getName())) {
                continue;
            }
            String etag = file instanceof EtagSource source ? source.getEtag() : null;
            adopted.add(new ManifestPart(relative, file.getLen(), etag, "adopted", 0, 0,
                    file.getModificationTime(), null, null));
        }
        return adopted;
    }

    private static boolean isHidden(String relative) {
        for (String segment : relative.split("/")) {
            if (segment.startsWith("_") || segment.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private void write(Manifest manifest) throws IOException {
        boolean atomicCreate = fs.hasPathCapability(root, StorkCapabilities.CONDITIONAL_CREATE)
                || !fs.hasPathCapability(root, StorkCapabilities.MANIFEST_LISTING);
        if (manifest.generation() == 1) {
            // The first generation is claimed by creating _SUCCESS itself without overwrite.
            writeManifest(manifest, false);
            return;
        }
        if (atomicCreate) {
            claim(manifest.generation());
        }
        writeManifest(manifest, true);
    }

    /**
     * Claims a generation: a create without overwrite of {@code _stork/generation-<n>} holding this job's
     * id. Swift rejects it if the claim exists, but checks each request on its own: two creates in flight
     * at the same moment can both succeed, the later one's content surviving. So the claim is read back
     * after {@link #CLAIM_SETTLE}: only the job whose id survived goes on; the other treats it as lost.
     */
    private void claim(long generation) throws IOException {
        Path claim = new Path(root, PartNames.INTERNAL_DIRECTORY + "/generation-" + generation);
        byte[] id = jobId.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (OutputStream out = (OutputStream) fs.createFile(claim).overwrite(false).recursive()
                .opt("fs.option.create.performance", true).build()) {
            out.write(id);
        }
        pause(CLAIM_SETTLE.toMillis());
        byte[] holder;
        try (InputStream in = fs.open(claim)) {
            holder = in.readAllBytes();
        }
        if (!java.util.Arrays.equals(holder, id)) {
            throw new FileAlreadyExistsException(claim + " was claimed at the same moment by job "
                    + new String(holder, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private void pause(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted committing " + root);
        }
    }

    private void writeManifest(Manifest manifest, boolean overwrite) throws IOException {
        try (OutputStream out = (OutputStream) fs.createFile(manifestPath()).overwrite(overwrite).recursive()
                .opt("fs.option.create.performance", true).build()) {
            ManifestCodec.write(manifest, out); // Jackson buffers; the stream's close() is the single PUT
        }
    }

    private void waitForGeneration(long generation) throws IOException {
        long deadline = System.nanoTime() + WAIT_FOR_WINNER.toNanos();
        long sleep = 100;
        while (System.nanoTime() < deadline) {
            Optional<Manifest> current = readManifest();
            if (current.isPresent() && current.get().generation() >= generation) {
                return;
            }
            pause(sleep);
            sleep = Math.min(sleep * 2, 2_000);
        }
        throw new ConcurrentCommitException("dataset " + root + ": another job claimed generation " + generation
                + " but wrote no manifest within " + WAIT_FOR_WINNER.toSeconds() + " s (it may have failed); job "
                + jobId + " did not commit. Run the dataset tool's inspect to see the state");
    }

    /** Deletes the previous parts the new generation no longer names (best effort: readers never see them). */
    private void purge(List<ManifestPart> previous, List<ManifestPart> kept) {
        if (previous.size() == kept.size()) {
            return;
        }
        Set<String> keptPaths = new HashSet<>();
        for (ManifestPart part : kept) {
            keptPaths.add(part.path());
        }
        List<Path> replaced = new ArrayList<>();
        for (ManifestPart part : previous) {
            if (!keptPaths.contains(part.path())) {
                replaced.add(new Path(root, part.path()));
            }
        }
        try {
            deleteAll(fs, root, replaced);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: committed; {} replaced objects were not all deleted ({}); the dataset tool's clean removes them",
                    root, replaced.size(), e.toString());
        }
    }

    /** Deletes files through Hadoop's bulk delete, a page at a time. Returns the number of failures. */
    static int deleteAll(FileSystem fs, Path base, List<Path> files) throws IOException {
        int failures = 0;
        try (BulkDelete bulk = fs.createBulkDelete(base)) {
            int page = bulk.pageSize();
            for (int from = 0; from < files.size(); from += page) {
                List<Map.Entry<Path, String>> failed = bulk.bulkDelete(files.subList(from, Math.min(files.size(), from + page)));
                failures += failed.size();
                for (Map.Entry<Path, String> f : failed) {
                    LOG.warn("could not delete {}: {}", f.getKey(), f.getValue());
                }
            }
        }
        return failures;
    }

    private record Previous(Optional<Manifest> manifest, List<ManifestPart> parts) {
        static final Previous NONE = new Previous(Optional.empty(), List.of());
    }
}
