package io.stork.manifest;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a Stork task attempt names the part it writes, straight at its final place:
 * {@code part-<task, 5 digits>-<job UUID>-attempt-<attempt><suffix>}, e.g.
 * {@code part-00003-5f0c…-attempt-17.c000.snappy.parquet}; or, for Hadoop committers' writers, the file
 * name with the Hadoop attempt id before its extension: {@code part-r-00003-attempt_…_r_000003_0.gz}.
 * The job and the attempt make the name unique, so retried and speculative attempts never collide and nothing needs renaming; which attempt
 * counts is decided by the manifest alone.
 */
public final class PartNames {

    /** The manifest's name in a dataset directory (where Hadoop writes its success marker). */
    public static final String MANIFEST = "_SUCCESS";

    /** A dataset's internal directory (commit claims); hidden from readers by its leading underscore. */
    public static final String INTERNAL_DIRECTORY = "_stork";

    private static final Pattern ATTEMPT_NAMED = Pattern.compile(
            "^part-(\\d{5,})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-attempt-(\\d+)(.*)$");

    /** A Hadoop task attempt id: attempt_<job tracker>_<job>_<m|r>_<task>_<attempt>. */
    private static final String HADOOP_ATTEMPT = "attempt_[0-9A-Za-z]+_\\d+_[mr]_\\d+_\\d+";

    private static final Pattern HADOOP_ATTEMPT_NAMED = Pattern.compile(
            "^[^.]+-(" + HADOOP_ATTEMPT + ")(\\..*)?$");

    /** Where Hadoop's classic committers put a task attempt's files: {@code <out>/_temporary/<n>/_temporary/<attempt>/<file>}. */
    private static final Pattern TEMPORARY_ATTEMPT_FILE = Pattern.compile(
            "^(?:(.*)/)?_temporary/\\d+/_temporary/(" + HADOOP_ATTEMPT + ")/(.+)$");

    private PartNames() {
    }

    /**
     * The final key of a file a task attempt writes under Hadoop's classic temporary layout, written there
     * directly instead: the attempt id goes into the name, before its extension
     * ({@code out/_temporary/0/_temporary/attempt_…_r_000003_0/part-r-00003.gz} becomes
     * {@code out/part-r-00003-attempt_…_r_000003_0.gz}). Empty for any other key.
     */
    public static Optional<String> finalKeyOfAttemptFile(String key) {
        Matcher m = TEMPORARY_ATTEMPT_FILE.matcher(key);
        if (!m.matches()) {
            return Optional.empty();
        }
        String base = m.group(1) == null ? "" : m.group(1) + "/";
        String relative = m.group(3);
        int slash = relative.lastIndexOf('/');
        String dir = slash < 0 ? "" : relative.substring(0, slash + 1);
        return Optional.of(base + dir + withAttempt(relative.substring(slash + 1), m.group(2)));
    }

    /** The directory key of the attempt a classic temporary file belongs to, e.g. {@code out/_temporary/0/_temporary/attempt_…}. */
    public static Optional<String> attemptDirectoryOf(String key) {
        Matcher m = TEMPORARY_ATTEMPT_FILE.matcher(key);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(key.substring(0, key.length() - m.group(3).length() - 1));
    }

    /** The Hadoop job id of a Hadoop attempt id: {@code attempt_<jt>_<n>_r_…} → {@code job_<jt>_<n>}. */
    public static Optional<String> hadoopJobOf(String attemptId) {
        Matcher m = Pattern.compile("^attempt_([0-9A-Za-z]+)_(\\d+)_[mr]_(\\d+)_(\\d+)$").matcher(attemptId);
        return m.matches() ? Optional.of("job_" + m.group(1) + "_" + m.group(2)) : Optional.empty();
    }

    /** The Hadoop task id of a Hadoop attempt id: {@code attempt_<jt>_<n>_r_000003_1} → {@code task_<jt>_<n>_r_000003}. */
    public static Optional<String> hadoopTaskOf(String attemptId) {
        Matcher m = Pattern.compile("^attempt_([0-9A-Za-z]+_\\d+_[mr]_\\d+)_(\\d+)$").matcher(attemptId);
        return m.matches() ? Optional.of("task_" + m.group(1)) : Optional.empty();
    }

    /** Inserts {@code -<attempt>} before a file name's first dot (keeping the extension codecs look for). */
    public static String withAttempt(String fileName, String attempt) {
        int dot = fileName.indexOf('.');
        return dot <= 0 ? fileName + "-" + attempt
                : fileName.substring(0, dot) + "-" + attempt + fileName.substring(dot);
    }

    /** The file name of a part. */
    public static String partFileName(int task, String jobId, long attempt, String suffix) {
        return String.format(Locale.ROOT, "part-%05d-%s-attempt-%d%s", task, jobId, attempt,
                suffix == null ? "" : suffix);
    }

    /** True if a file name has the form of a Stork attempt part (unique by construction). */
    /** A path with a segment starting with "_" or "." (Stork's and other tools' bookkeeping): not data. */
    public static boolean isHidden(String relativePath) {
        for (String segment : relativePath.split("/")) {
            if (segment.startsWith("_") || segment.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    public static boolean isAttemptNamed(String fileName) {
        return ATTEMPT_NAMED.matcher(fileName).matches() || HADOOP_ATTEMPT_NAMED.matcher(fileName).matches();
    }

    /** The job id in an attempt part's name. */
    public static Optional<String> jobIdOf(String fileName) {
        Matcher m = ATTEMPT_NAMED.matcher(fileName);
        return m.matches() ? Optional.of(m.group(2)) : Optional.empty();
    }

    /**
     * The job that wrote an attempt part, as its committer names the job: the UUID of a Spark SQL job, or
     * {@code job_<tracker>_<n>} for a Hadoop attempt's part. Empty for any other name.
     */
    public static Optional<String> writingJobOf(String fileName) {
        Optional<String> sql = jobIdOf(fileName);
        if (sql.isPresent()) {
            return sql;
        }
        Matcher m = HADOOP_ATTEMPT_NAMED.matcher(fileName);
        return m.matches() ? hadoopJobOf(m.group(1)) : Optional.empty();
    }

    /**
     * The task attempt that wrote an attempt part, as one key: {@code <job>/<task>/<attempt>} for a Stork
     * name, the Hadoop attempt id for a Hadoop one. Empty for any other name.
     */
    public static Optional<String> attemptOf(String fileName) {
        Matcher m = ATTEMPT_NAMED.matcher(fileName);
        if (m.matches()) {
            return Optional.of(m.group(2) + "/" + Integer.parseInt(m.group(1)) + "/" + m.group(3));
        }
        Matcher h = HADOOP_ATTEMPT_NAMED.matcher(fileName);
        return h.matches() ? Optional.of(h.group(1)) : Optional.empty();
    }

    /** The last segment of a '/'-separated path. */
    public static String fileName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
