package io.stork.manifest;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A committed task attempt's file, recorded by a zero-byte object whose name carries what the manifest
 * needs: {@code <dataset>/_stork/jobs/<job>/<task>@<attempt>@<length>@<etag>@<relative path, URL-encoded>}.
 * Written at task commit by Hadoop-committer writers (one small PUT per file); the job commit reads them
 * all with one listing, without a GET per task.
 */
public record TaskMarker(int task, long attempt, long length, String etag, String relativePath) {

    /** The directory of a job's markers, relative to the dataset. */
    public static String directory(String jobId) {
        return PartNames.INTERNAL_DIRECTORY + "/jobs/" + jobId;
    }

    /** The marker's object name (its last path segment). */
    public String name() {
        return task + "@" + attempt + "@" + length + "@" + (etag == null ? "-" : etag) + "@"
                + URLEncoder.encode(relativePath, StandardCharsets.UTF_8);
    }

    public static Optional<TaskMarker> parse(String name) {
        String[] f = name.split("@", 5);
        if (f.length != 5) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TaskMarker(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                    f[3].equals("-") ? null : f[3], URLDecoder.decode(f[4], StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** One attempt per task: where markers of two attempts of a task exist, the later attempt's. */
    public static List<TaskMarker> oneAttemptPerTask(List<TaskMarker> markers) {
        Map<Integer, Long> chosen = new HashMap<>();
        for (TaskMarker m : markers) {
            chosen.merge(m.task(), m.attempt(), Math::max);
        }
        List<TaskMarker> result = new ArrayList<>();
        for (TaskMarker m : markers) {
            if (chosen.get(m.task()) == m.attempt()) {
                result.add(m);
            }
        }
        return result;
    }

    public ManifestPart toPart(String jobId, long modifiedAt) {
        return new ManifestPart(relativePath, length, etag, jobId, task, attempt, modifiedAt, null, null);
    }
}
