package io.stork.hadoop.commit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a committer may learn from the file system instance its job's checks went through, and tell it
 * back, to spare calls without guessing:
 * <ul>
 *   <li>absences seen: an existence check that found nothing at an output path (Hadoop's output formats
 *       check before a job starts), so the job commit knows the output was new, as Stork's SQL protocol
 *       knows it from its own check;</li>
 *   <li>absences declared: a path the committer knows holds nothing (the staging directory Spark deletes
 *       after an RDD write to a new output, which RDD writes never use), answered without a call for a
 *       short while.</li>
 * </ul>
 * Per file system instance and bounded; an answer it does not have costs the usual calls.
 */
final class OutputProbes {

    private static final int CAPACITY = 1_000;
    private static final Duration DECLARED_FOR = Duration.ofMinutes(1);

    private final Map<String, Long> seenAbsent = bounded();
    private final Map<String, Long> declaredAbsent = bounded();

    private static Map<String, Long> bounded() {
        return new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > CAPACITY;
            }
        };
    }

    synchronized void existenceChecked(String key, boolean exists) {
        if (exists) {
            seenAbsent.remove(key);
        } else {
            seenAbsent.put(key, System.nanoTime());
        }
    }

    synchronized boolean seenAbsentWithin(String key, Duration within) {
        Long at = seenAbsent.get(key);
        return at != null && System.nanoTime() - at <= within.toNanos();
    }

    synchronized void declareAbsent(String key) {
        declaredAbsent.put(key, System.nanoTime() + DECLARED_FOR.toNanos());
    }

    /** Whether a committer declared {@code key} absent, recently; a write below it ends the declaration. */
    synchronized boolean declaredAbsent(String key) {
        Long until = declaredAbsent.get(key);
        if (until != null && System.nanoTime() > until) {
            declaredAbsent.remove(key);
            return false;
        }
        return until != null;
    }

    synchronized void written(String key) {
        declaredAbsent.keySet().removeIf(k -> key.equals(k) || key.startsWith(k + "/"));
        seenAbsent.keySet().removeIf(k -> key.equals(k) || key.startsWith(k + "/"));
    }
}
