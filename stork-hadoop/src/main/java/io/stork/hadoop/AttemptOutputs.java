package io.stork.hadoop;

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

    private final Map<String, List<WrittenFile>> byAttempt = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<WrittenFile>> eldest) {
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

    synchronized void record(String attemptDirectoryKey, WrittenFile written) {
        byAttempt.computeIfAbsent(attemptDirectoryKey, k -> new ArrayList<>()).add(written);
    }

    synchronized List<WrittenFile> take(String attemptDirectoryKey) {
        List<WrittenFile> written = byAttempt.remove(attemptDirectoryKey);
        return written == null ? List.of() : written;
    }
}
