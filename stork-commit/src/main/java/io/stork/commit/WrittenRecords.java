package io.stork.commit;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Record counts of files written in this JVM, reported by a counting output writer (stork-spark's
 * extension) when it closes a file and taken by the task commit that names the file in its commit message.
 * Spark computes its own write statistics only after the task commit, so they cannot serve.
 */
public final class WrittenRecords {

    private static final int CAPACITY = 100_000;
    private static final Map<String, Long> COUNTS = new ConcurrentHashMap<>();

    private WrittenRecords() {
    }

    /** A file (the path string the commit protocol handed out) was closed with this many records. */
    public static void record(String path, long records) {
        if (COUNTS.size() >= CAPACITY) {
            COUNTS.clear(); // files of attempts that never committed or aborted: counts are only a bonus
        }
        COUNTS.put(path, records);
    }

    static OptionalLong take(String path) {
        Long count = COUNTS.remove(path);
        return count == null ? OptionalLong.empty() : OptionalLong.of(count);
    }
}
