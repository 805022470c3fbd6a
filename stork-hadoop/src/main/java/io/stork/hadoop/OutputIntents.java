package io.stork.hadoop;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * Output paths that a Stork commit protocol in this JVM is about to write, announced before Spark checks
 * whether the path exists.
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

    private static final int CAPACITY = 1_000;

    /** null value: announced, not yet checked. */
    private static final Map<String, Boolean> INTENTS = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };

    private OutputIntents() {
    }

    private static String normalise(Path path) {
        String s = path.toUri().toString();
        return s.endsWith("/") && s.length() > 1 ? s.substring(0, s.length() - 1) : s;
    }

    /** A job is about to write to {@code path} (a fully qualified URI). */
    public static synchronized void announce(Path path) {
        INTENTS.put(normalise(path), null);
    }

    static synchronized boolean isAnnounced(Path qualified) {
        return INTENTS.containsKey(normalise(qualified));
    }

    static synchronized void recordExistence(Path qualified, boolean exists) {
        String key = normalise(qualified);
        if (INTENTS.containsKey(key)) {
            INTENTS.put(key, exists);
        }
    }

    /**
     * Whether the announced path existed when it was checked, and forgets it; empty if it was not
     * announced or not checked (e.g. Spark skips the check when appending).
     */
    public static synchronized Optional<Boolean> takeExistence(Path path) {
        return Optional.ofNullable(INTENTS.remove(normalise(path)));
    }
}
