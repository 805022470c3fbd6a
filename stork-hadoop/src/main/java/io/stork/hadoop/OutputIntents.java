package io.stork.hadoop;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * Output paths that a Stork commit protocol is about to write through one file system instance, announced
 * to that instance (the one Spark's existence check uses: FileSystem instances are cached per bucket and
 * user) before Spark checks whether the path exists. Owned by the instance, not the JVM: with caching off,
 * the announcement simply does not reach the check, which then costs a call more and stays correct.
 *
 * <p>Why: {@code exists()} on a directory normally reads the directory's manifest first (one GET), so
 * that a reader that checks before listing pays no LIST. A writer's existence check needs no manifest,
 * only "is anything there", which one LIST answers; and the answer tells the job commit whether a previous
 * manifest must be read before the new one is written. Announcing the output path turns its next
 * existence check into that single LIST and keeps the answer for the protocol, so a one-task job costs
 * 3 calls (check, part, manifest) instead of 5. Without an announcement everything stays correct and
 * costs a call or two more.
 */
public final class OutputIntents {

    /** A file system that takes announcements (stork://). */
    public interface Announceable {
        OutputIntents outputIntents();
    }

    private static final int CAPACITY = 1_000;

    /** null value: announced, not yet checked. */
    private final Map<String, Boolean> intents = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };


    private static String normalise(Path path) {
        String s = path.toUri().toString();
        return s.endsWith("/") && s.length() > 1 ? s.substring(0, s.length() - 1) : s;
    }

    /** A job is about to write to {@code path} (a fully qualified URI). */
    public synchronized void announce(Path path) {
        intents.put(normalise(path), null);
    }

    synchronized boolean isAnnounced(Path qualified) {
        return intents.containsKey(normalise(qualified));
    }

    synchronized void recordExistence(Path qualified, boolean exists) {
        String key = normalise(qualified);
        if (intents.containsKey(key)) {
            intents.put(key, exists);
        }
    }

    /**
     * Whether the announced path existed when it was checked, and forgets it; empty if it was not
     * announced or not checked (e.g. Spark skips the check when appending).
     */
    public synchronized Optional<Boolean> takeExistence(Path path) {
        return Optional.ofNullable(intents.remove(normalise(path)));
    }
}
