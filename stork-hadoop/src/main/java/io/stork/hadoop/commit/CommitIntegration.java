package io.stork.hadoop.commit;

import io.stork.hadoop.WrittenFile;
import io.stork.hadoop.namespace.DatasetManifests;
import io.stork.manifest.PartNames;
import io.stork.manifest.commit.CommitSettings;
import io.stork.store.ObjectStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileStatus;

/**
 * The one object the file system asks about commit paths (as S3A's {@code MagicCommitIntegration}):
 * whether a file being created belongs to a task attempt of a Stork committer (and goes straight to its
 * final, attempt-named key), and, with the classic committer's emulation on, what the virtual
 * {@code _temporary} tree holds. Every answer is "not a commit path" (empty) for anything else, so the
 * file system handles those paths as usual, with no branch of its own per case.
 */
public final class CommitIntegration {

    /**
     * Task attempts' files, per bucket and shared by every file system instance in the JVM: a writer and
     * its committer may hold different instances (FileSystem caching off, or a new instance per
     * configuration), and the committer must still find what the writer wrote.
     */
    private static final ConcurrentHashMap<String, AttemptOutputs> ATTEMPTS_BY_BUCKET = new ConcurrentHashMap<>();

    private final AttemptOutputs attempts;
    private final ClassicCommitEmulation emulation; // null: emulation off
    private final OutputProbes probes = new OutputProbes();

    private CommitIntegration(AttemptOutputs attempts, ClassicCommitEmulation emulation) {
        this.attempts = attempts;
        this.emulation = emulation;
    }

    /**
     * @param emulateClassic whether Hadoop's classic committer runs rename-free on this bucket
     *                       ({@code fs.stork.classic.committer.emulation})
     */
    public static CommitIntegration create(ObjectStore store, String bucket, DatasetManifests manifests,
                                           StatusFactory statuses, CommitSettings settings, boolean emulateClassic) {
        AttemptOutputs attempts = ATTEMPTS_BY_BUCKET.computeIfAbsent(bucket, b -> new AttemptOutputs());
        return new CommitIntegration(attempts, emulateClassic
                ? new ClassicCommitEmulation(store, bucket, attempts, manifests, statuses, settings) : null);
    }

    /** Builds file statuses for keys (the file system's own, so paths and block sizes match). */
    public interface StatusFactory {
        FileStatus file(String key, long length);

        FileStatus directory(String key);
    }

    /**
     * The attempt directory of a file being created, when it is a task attempt's file that goes straight
     * to its final, attempt-named key: under Hadoop's classic temporary layout, for an attempt a Stork
     * committer announced, or any attempt while the classic committer is emulated.
     */
    public Optional<String> attemptDirectory(String requestedKey) {
        return PartNames.attemptDirectoryOf(requestedKey)
                .filter(dir -> emulation != null || attempts.isExpected(dir));
    }

    /** A redirected attempt file was written: its committer will ask for it. */
    public void written(String attemptDirectory, String requestedKey, WrittenFile file) {
        attempts.record(attemptDirectory, requestedKey.substring(attemptDirectory.length() + 1), file);
    }

    /** A Stork committer set up this attempt (its work directory's key). */
    public void expectAttempt(String attemptDirectoryKey) {
        attempts.expect(attemptDirectoryKey);
    }

    /** The files the attempt wrote, at their final keys; forgets them. */
    public List<WrittenFile> takeAttemptOutputs(String attemptDirectoryKey) {
        return attempts.take(attemptDirectoryKey);
    }

    /** The status of a virtual path; empty if not a commit path; FileNotFoundException if virtual and absent. */
    public Optional<FileStatus> status(String key) throws FileNotFoundException {
        if (probes.declaredAbsent(key)) {
            throw new FileNotFoundException(key + " (its job's committer knows it holds nothing)");
        }
        return emulation == null ? Optional.empty() : emulation.status(key);
    }

    /** An existence check's answer, for {@link #seenAbsentWithin}. */
    public void existenceChecked(String key, boolean exists) {
        probes.existenceChecked(key, exists);
    }

    /** Whether an existence check of {@code key} through this instance found nothing, at most {@code within} ago. */
    public boolean seenAbsentWithin(String key, java.time.Duration within) {
        return probes.seenAbsentWithin(key, within);
    }

    /** A committer knows {@code key} holds nothing: its status and deletion need no call for a minute. */
    public void declareAbsent(String key) {
        probes.declareAbsent(key);
    }

    /** An object was created at {@code key}: what was known absent above it is not any more. */
    public void objectCreated(String key) {
        probes.written(key);
    }

    public Optional<FileStatus[]> list(String key) throws IOException {
        return emulation == null ? Optional.empty() : emulation.list(key);
    }

    /** Whether a listing of {@code key} must be answered eagerly, because it is in the virtual tree. */
    public boolean inTemporaryTree(String key) {
        return emulation != null && ClassicCommitEmulation.inTemporaryTree(key);
    }

    /** True when {@code key} is a directory of the virtual tree (nothing to create). */
    public boolean mkdirs(String key) {
        return emulation != null && emulation.mkdirs(key).isPresent();
    }

    public Optional<Boolean> rename(String source, String destination) throws IOException {
        return emulation == null ? Optional.empty() : emulation.rename(source, destination);
    }

    /** Deletes {@code key} if virtual (an aborted attempt's files through {@code deleter}); empty otherwise. */
    public Optional<Boolean> delete(String key, KeyDeleter deleter) throws IOException {
        if (probes.declaredAbsent(key)) {
            return Optional.of(false);
        }
        if (emulation == null) {
            return Optional.empty();
        }
        IOException[] failure = {null};
        Optional<Boolean> result = emulation.delete(key, keys -> {
            try {
                deleter.delete(keys);
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        return result;
    }

    /** Deletes objects by key. */
    public interface KeyDeleter {
        void delete(List<String> keys) throws IOException;
    }

    /** Whether a {@code _SUCCESS} being created may be the classic committer's last step, to be replaced. */
    public boolean interceptsSuccessMarkers() {
        return emulation != null;
    }

    /** The classic committer's empty {@code _SUCCESS} in {@code directory}: commit instead, if a job is pending. */
    public boolean commitOnSuccessMarker(String directory) throws IOException {
        return emulation != null && emulation.commitOnSuccessMarker(directory);
    }
}
