package io.stork.manifest;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a Stork task attempt names the part it writes, straight at its final place:
 * {@code part-<task, 5 digits>-<job UUID>-attempt-<attempt><suffix>}, e.g.
 * {@code part-00003-5f0c…-attempt-17.c000.snappy.parquet}. The job UUID and the attempt make the name
 * unique, so retried and speculative attempts never collide and nothing needs renaming; which attempt
 * counts is decided by the manifest alone.
 */
public final class PartNames {

    /** The manifest's name in a dataset directory (where Hadoop writes its success marker). */
    public static final String MANIFEST = "_SUCCESS";

    /** A dataset's internal directory (commit claims); hidden from readers by its leading underscore. */
    public static final String INTERNAL_DIRECTORY = "_stork";

    private static final Pattern ATTEMPT_NAMED = Pattern.compile(
            "^part-(\\d{5,})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-attempt-(\\d+)(.*)$");

    private PartNames() {
    }

    /** The file name of a part. */
    public static String partFileName(int task, String jobId, long attempt, String suffix) {
        return String.format(Locale.ROOT, "part-%05d-%s-attempt-%d%s", task, jobId, attempt,
                suffix == null ? "" : suffix);
    }

    /** True if a file name has the form of a Stork attempt part (unique by construction). */
    public static boolean isAttemptNamed(String fileName) {
        return ATTEMPT_NAMED.matcher(fileName).matches();
    }

    /** The job id in an attempt part's name. */
    public static Optional<String> jobIdOf(String fileName) {
        Matcher m = ATTEMPT_NAMED.matcher(fileName);
        return m.matches() ? Optional.of(m.group(2)) : Optional.empty();
    }

    /** The last segment of a '/'-separated path. */
    public static String fileName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
