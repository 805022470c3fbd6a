package io.stork.hadoop.commit;

import io.stork.hadoop.WrittenFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The task attempts a Stork committer set up in this JVM, and the files they wrote under Hadoop's classic
 * temporary layout (each redirected to its final, attempt-named key), so that the attempt's committer
 * learns them without a listing. Attempts no Stork committer announced (Hadoop's classic committer, which
 * renames its temporary tree) are left alone. Bounded: attempts that never commit or abort (a killed task) are forgotten, oldest first.
 */
final class AttemptOutputs {

    private static final int CAPACITY = 10_000;

    private final Map<String, List<AttemptFile>> byAttempt = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<AttemptFile>> eldest) {
            return size() > CAPACITY;
        }
    };

    /** A Stork committer set up this attempt: its files are to go straight to final names. */
    synchronized void expect(String attemptDirectoryKey) {
        byAttempt.putIfAbsent(attemptDirectoryKey, new ArrayList<>());
    }

    synchronized boolean isExpected(String attemptDirectoryKey) {
        return byAttempt.containsKey(attemptDirectoryKey);
    }

    /** A file an attempt wrote: the path it asked for, relative to its work directory, and where it went. */
    record AttemptFile(String requestedRelative, WrittenFile file) {
    }

    synchronized void record(String attemptDirectoryKey, String requestedRelative, WrittenFile written) {
        byAttempt.computeIfAbsent(attemptDirectoryKey, k -> new ArrayList<>()).add(new AttemptFile(requestedRelative, written));
    }

    /** What the attempt wrote so far, without forgetting it; null if nothing is known of the attempt. */
    synchronized List<AttemptFile> peek(String attemptDirectoryKey) {
        List<AttemptFile> files = byAttempt.get(attemptDirectoryKey);
        return files == null ? null : List.copyOf(files);
    }

    /** Forgets one file of an attempt (committed on its own, as Hadoop's algorithm 2 does). */
    synchronized void forget(String attemptDirectoryKey, AttemptFile file) {
        List<AttemptFile> files = byAttempt.get(attemptDirectoryKey);
        if (files != null) {
            files.remove(file);
        }
    }

    synchronized List<WrittenFile> take(String attemptDirectoryKey) {
        List<AttemptFile> written = byAttempt.remove(attemptDirectoryKey);
        return written == null ? List.of() : written.stream().map(AttemptFile::file).toList();
    }
}
