package io.stork.manifest;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A dataset directory pinned to a past generation, by path, so that every API that takes a path can time
 * travel (Spark SQL, RDDs, Hadoop): {@code <dataset>@v<generation>} or {@code <dataset>@<yyyyMMddHHmmssSSS>}
 * (UTC; the latest generation committed at or before that instant), as Delta Lake's path syntax.
 *
 * @param root      the pinned directory's key as written ({@code data/t@v3})
 * @param dataset   the dataset directory's key ({@code data/t})
 * @param generation the generation asked for, or 0 when a timestamp was
 * @param timestamp  the instant asked for, or null when a generation was
 */
public record SnapshotRef(String root, String dataset, long generation, Instant timestamp) {

    private static final Pattern SEGMENT = Pattern.compile("^(.+)@(?:v(\\d{1,18})|(\\d{17}))$");
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

    /** The pinned dataset a key lies in (the key itself or a key below it), if a segment of it pins one. */
    public static Optional<SnapshotRef> of(String key) {
        if (key.indexOf('@') < 0) {
            return Optional.empty();
        }
        String[] segments = key.split("/");
        StringBuilder prefix = new StringBuilder();
        for (String segment : segments) {
            Matcher m = SEGMENT.matcher(segment);
            if (m.matches()) {
                String parent = prefix.toString();
                String dataset = parent + m.group(1);
                String root = parent + segment;
                if (m.group(2) != null) {
                    long generation = Long.parseLong(m.group(2));
                    return generation < 1 ? Optional.empty() : Optional.of(new SnapshotRef(root, dataset, generation, null));
                }
                try {
                    Instant at = LocalDateTime.parse(m.group(3), TIMESTAMP).toInstant(ZoneOffset.UTC);
                    return Optional.of(new SnapshotRef(root, dataset, 0, at));
                } catch (DateTimeParseException e) {
                    return Optional.empty();
                }
            }
            prefix.append(segment).append('/');
        }
        return Optional.empty();
    }

    /** The path suffix that pins {@code generation}. */
    public static String generationSuffix(long generation) {
        return "@v" + generation;
    }

    /** The path suffix that pins the generation current at {@code instant}. */
    public static String timestampSuffix(Instant instant) {
        return "@" + TIMESTAMP.format(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    /**
     * The generation of {@code manifest} this reference selects, and whether it can still be read.
     *
     * @throws IllegalArgumentException naming the problem (unknown generation, before the first commit,
     *                                  older than the manifest keeps)
     */
    public long select(Manifest manifest) {
        long g = generation;
        if (timestamp != null) {
            g = manifest.generationAt(timestamp).orElseThrow(() -> new IllegalArgumentException("no generation of "
                    + dataset + " was committed at or before " + timestamp + " (that the manifest still lists: "
                    + "generations " + manifest.restorableFrom() + " to " + manifest.generation() + ")"));
        }
        if (g > manifest.generation()) {
            throw new IllegalArgumentException("generation " + g + " of " + dataset + " does not exist (the dataset "
                    + "is at generation " + manifest.generation() + ")");
        }
        if (g < manifest.restorableFrom()) {
            throw new IllegalArgumentException("generation " + g + " of " + dataset + " is older than the retention "
                    + "period kept (generations " + manifest.restorableFrom() + " to " + manifest.generation() + ")");
        }
        return g;
    }
}
