package io.stork.manifest.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Task attempts whose parts a maintenance command deleted while no manifest named them: no commit may
 * name a part of theirs afterwards, or its generation would name objects that are gone. Maintenance
 * records the fence in a generation of its own before it deletes (through the {@link CommitPoint}, so it
 * is ordered with every commit by the same conditional writes), and every commit checks its parts against
 * the manifest it builds on, which it reads anyway: the guarantee costs a commit no call
 * (docs/commit-protocol.md, "Maintenance and running jobs"). Fencing attempts, not jobs: a long job whose
 * failed attempt's leftovers were cleaned still commits its other attempts' parts.
 *
 * <p>Kept as the reserved dataset property {@value #PROPERTY} ({@code attempt@epochMillis,...}, attempts
 * as {@link PartNames#attemptOf} names them), which every commit carries forward unchanged; a fence is
 * dropped by the next fencing commit once older than {@link #lifetime(Duration)}.
 */
public final class Fences {

    public static final String PROPERTY = "stork.fenced.attempts";

    /** No job is expected to run past a week; past the retention period its parts are gone anyway. */
    private static final Duration MINIMUM_LIFETIME = Duration.ofDays(7);

    private Fences() {
    }

    /** The fenced attempts of a manifest, with when they were fenced. */
    public static Map<String, Instant> of(Manifest manifest) {
        return decode(manifest.properties().get(PROPERTY));
    }

    /** The first of {@code parts} that a fenced attempt wrote, if any. */
    public static Optional<ManifestPart> firstFenced(Manifest manifest, List<ManifestPart> parts) {
        String value = manifest.properties().get(PROPERTY);
        if (value == null || value.isEmpty() || parts.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Instant> fenced = decode(value);
        for (ManifestPart part : parts) {
            Optional<String> attempt = PartNames.attemptOf(PartNames.fileName(part.path()));
            if (attempt.isPresent() && fenced.containsKey(attempt.get())) {
                return Optional.of(part);
            }
        }
        return Optional.empty();
    }

    /** How long a fence is kept: the retention period, and at least a week. */
    public static Duration lifetime(Duration retention) {
        return retention.compareTo(MINIMUM_LIFETIME) > 0 ? retention : MINIMUM_LIFETIME;
    }

    /** The property's new value: the previous fences not yet expired, and {@code attempts} fenced at {@code now}. */
    static String merge(Manifest previous, Collection<String> attempts, Instant now, Duration lifetime) {
        Map<String, Instant> fences = previous == null ? new TreeMap<>() : new TreeMap<>(of(previous));
        fences.values().removeIf(at -> at.isBefore(now.minus(lifetime)));
        attempts.forEach(attempt -> fences.put(attempt, now));
        StringBuilder b = new StringBuilder();
        fences.forEach((attempt, at) -> b.append(b.length() == 0 ? "" : ",").append(attempt).append('@')
                .append(at.toEpochMilli()));
        return b.toString();
    }

    private static Map<String, Instant> decode(String value) {
        Map<String, Instant> fences = new TreeMap<>();
        if (value == null || value.isEmpty()) {
            return fences;
        }
        for (String entry : value.split(",")) {
            int at = entry.lastIndexOf('@');
            try {
                fences.put(entry.substring(0, at), Instant.ofEpochMilli(Long.parseLong(entry.substring(at + 1))));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("malformed " + PROPERTY + " entry '" + entry + "'");
            }
        }
        return fences;
    }
}
