package io.stork.hadoop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files task attempts wrote through this file system under Hadoop's classic temporary layout (each
 * redirected to its final, attempt-named key), so that the attempt's committer learns them without a
 * listing. Bounded: attempts that never commit or abort (a killed task) are forgotten, oldest first.
 */
final class AttemptOutputs {

    private static final int CAPACITY = 10_000;

    private final Map<String, List<WrittenFile>> byAttempt = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<WrittenFile>> eldest) {
            return size() > CAPACITY;
        }
    };

    synchronized void record(String attemptDirectoryKey, WrittenFile written) {
        byAttempt.computeIfAbsent(attemptDirectoryKey, k -> new ArrayList<>()).add(written);
    }

    synchronized List<WrittenFile> take(String attemptDirectoryKey) {
        List<WrittenFile> written = byAttempt.remove(attemptDirectoryKey);
        return written == null ? List.of() : written;
    }
}
