package io.stork.hadoop.commit;

import io.stork.hadoop.WrittenFile;
import io.stork.hadoop.namespace.DatasetManifests;
import io.stork.hadoop.namespace.LoadedManifest;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.manifest.TaskMarker;
import io.stork.manifest.commit.CommitPoint;
import io.stork.manifest.commit.CommitSettings;
import io.stork.manifest.commit.MergePlan;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;

/**
 * Hadoop's classic {@code FileOutputCommitter} on {@code stork://} without a rename (docs/commit-protocol.md,
 * "The classic committer"). That committer keeps its state in a directory tree, {@code <out>/_temporary},
 * and moves files through it by renames. Here the tree is virtual: a task attempt's files go straight to
 * their final, attempt-named keys; "renaming" the attempt's directory to the committed-task directory
 * writes one zero-byte {@link TaskMarker} per file; the job commit's listing of committed tasks reads the
 * markers (one LIST), its merge into the output renames nothing; and the empty {@code _SUCCESS} it
 * finally creates is replaced by the Stork manifest naming the committed parts.
 *
 * <p>Every method answers for keys of the virtual tree (and, during a job commit, for the names the
 * committer expects in the output) and returns empty for anything else, which the file system then
 * handles as usual.
 */
final class ClassicCommitEmulation {

    private static final String ATTEMPT = "attempt_[0-9A-Za-z]+_\\d+_[mr]_\\d+_\\d+";
    private static final String TASK = "task_[0-9A-Za-z]+_\\d+_[mr]_\\d+";
    private static final Pattern PENDING = Pattern.compile("^(?:(.*)/)?_temporary(?:/(\\d+)(?:/_temporary)?)?$");
    private static final Pattern ATTEMPT_PATH = Pattern.compile("^(?:(.*)/)?_temporary/\\d+/_temporary/(" + ATTEMPT + ")(?:/(.+))?$");
    private static final Pattern TASK_PATH = Pattern.compile("^(?:(.*)/)?_temporary/\\d+/(" + TASK + ")(?:/(.+))?$");
    private static final Pattern ATTEMPT_SUFFIX = Pattern.compile("-" + ATTEMPT + "(?=\\.|$)");

    /**
     * A job commit in progress in this JVM: the committed files by task, and the names (as requested, and
     * the directories leading to them) the committer will look for in the output, computed once.
     */
    private record PendingJob(String jobId, Map<String, List<TaskMarker>> byTask, Optional<LoadedManifest> previous,
                              Set<String> requestedFiles, Set<String> requestedDirectories) {

        static PendingJob of(String jobId, Map<String, List<TaskMarker>> byTask, Optional<LoadedManifest> previous) {
            Set<String> files = new java.util.HashSet<>();
            Set<String> directories = new java.util.HashSet<>();
            for (List<TaskMarker> markers : byTask.values()) {
                for (TaskMarker m : markers) {
                    String name = requestedName(m.relativePath());
                    files.add(name);
                    for (int slash = name.lastIndexOf('/'); slash > 0; slash = name.lastIndexOf('/', slash - 1)) {
                        directories.add(name.substring(0, slash));
                    }
                }
            }
            return new PendingJob(jobId, byTask, previous, files, directories);
        }

        Map<String, TaskMarker> filesOf(String taskId) {
            Map<String, TaskMarker> files = new TreeMap<>();
            for (TaskMarker m : byTask.getOrDefault(taskId, List.of())) {
                files.put(requestedName(m.relativePath()), m);
            }
            return files;
        }
    }

    private final ObjectStore store;
    private final String bucket;
    private final AttemptOutputs attempts;
    private final DatasetManifests manifests;
    private final CommitIntegration.StatusFactory statuses;
    private final CommitSettings commitSettings;
    private final Map<String, PendingJob> pending = new HashMap<>();

    ClassicCommitEmulation(ObjectStore store, String bucket, AttemptOutputs attempts, DatasetManifests manifests,
                           CommitIntegration.StatusFactory statuses, CommitSettings commitSettings) {
        this.commitSettings = commitSettings;
        this.store = store;
        this.bucket = bucket;
        this.attempts = attempts;
        this.manifests = manifests;
        this.statuses = statuses;
    }

    static boolean inTemporaryTree(String key) {
        return key.equals("_temporary") || key.startsWith("_temporary/") || key.endsWith("/_temporary")
                || key.contains("/_temporary/");
    }

    /** The name a file was asked for: its final name without the attempt id. */
    static String requestedName(String relative) {
        return ATTEMPT_SUFFIX.matcher(relative).replaceFirst("");
    }

    private static String join(String base, String relative) {
        return base == null || base.isEmpty() ? relative : base + "/" + relative;
    }

    // ---- the virtual tree ----

    Optional<Boolean> mkdirs(String key) {
        return inTemporaryTree(key) ? Optional.of(true) : Optional.empty();
    }

    /** The status of a virtual path: empty if not virtual; a FileNotFoundException if virtual and absent. */
    synchronized Optional<FileStatus> status(String key) throws FileNotFoundException {
        if (PENDING.matcher(key).matches()) {
            return Optional.of(statuses.directory(key));
        }
        Matcher attempt = ATTEMPT_PATH.matcher(key);
        if (attempt.matches()) {
            String dir = key.substring(0, attempt.group(3) == null ? key.length()
                    : key.length() - attempt.group(3).length() - 1);
            List<AttemptOutputs.AttemptFile> files = attempts.peek(dir);
            return Optional.of(entryStatus(key, attempt.group(3), files == null ? null
                    : files.stream().collect(LinkedHashMap::new, (m, f) -> m.put(f.requestedRelative(), f.file().length()),
                    Map::putAll)));
        }
        Matcher task = TASK_PATH.matcher(key);
        if (task.matches()) {
            PendingJob job = pending.get(task.group(1) == null ? "" : task.group(1));
            Map<String, Long> files = null;
            if (job != null && job.byTask().containsKey(task.group(2))) {
                files = new LinkedHashMap<>();
                for (Map.Entry<String, TaskMarker> e : job.filesOf(task.group(2)).entrySet()) {
                    files.put(e.getKey(), e.getValue().length());
                }
            }
            return Optional.of(entryStatus(key, task.group(3), files));
        }
        // During a job commit, the output's expected names: the committer checks each before "moving" into it.
        for (Map.Entry<String, PendingJob> e : pending.entrySet()) {
            String out = e.getKey();
            if (key.equals(out)) {
                return Optional.of(statuses.directory(key));
            }
            if (out.isEmpty() || key.startsWith(out + "/")) {
                String relative = out.isEmpty() ? key : key.substring(out.length() + 1);
                if (e.getValue().requestedFiles().contains(relative)) {
                    throw new FileNotFoundException(key + " (its part is stored under an attempt-named key)");
                }
                if (e.getValue().requestedDirectories().contains(relative)) {
                    return Optional.of(statuses.directory(key));
                }
            }
        }
        return Optional.empty();
    }

    private FileStatus entryStatus(String key, String relative, Map<String, Long> files) throws FileNotFoundException {
        if (files == null) {
            throw new FileNotFoundException(key + " (no output of this task)");
        }
        if (relative == null) {
            return statuses.directory(key);
        }
        Long length = files.get(relative);
        if (length != null) {
            return statuses.file(key, length);
        }
        if (files.keySet().stream().anyMatch(f -> f.startsWith(relative + "/"))) {
            return statuses.directory(key);
        }
        throw new FileNotFoundException(key);
    }

    /** Lists a virtual directory; the committed-task listing of a job attempt reads the task markers (one LIST). */
    synchronized Optional<FileStatus[]> list(String key) throws IOException {
        Matcher pendingMatch = PENDING.matcher(key);
        if (pendingMatch.matches() && pendingMatch.group(2) != null && !key.endsWith("/_temporary")) {
            String out = pendingMatch.group(1) == null ? "" : pendingMatch.group(1);
            Optional<PendingJob> job = loadCommittedTasks(out);
            List<FileStatus> dirs = new ArrayList<>();
            job.ifPresent(j -> {
                pending.put(out, j);
                j.byTask().keySet().forEach(taskId -> dirs.add(statuses.directory(key + "/" + taskId)));
            });
            return Optional.of(dirs.toArray(new FileStatus[0]));
        }
        if (pendingMatch.matches()) {
            return Optional.of(new FileStatus[0]);
        }
        Matcher attempt = ATTEMPT_PATH.matcher(key);
        Matcher task = TASK_PATH.matcher(key);
        Map<String, Long> files;
        String relative;
        if (attempt.matches()) {
            relative = attempt.group(3);
            String dir = relative == null ? key : key.substring(0, key.length() - relative.length() - 1);
            List<AttemptOutputs.AttemptFile> written = attempts.peek(dir);
            files = new LinkedHashMap<>();
            if (written != null) {
                written.forEach(f -> files.put(f.requestedRelative(), f.file().length()));
            }
        } else if (task.matches()) {
            relative = task.group(3);
            PendingJob job = pending.get(task.group(1) == null ? "" : task.group(1));
            files = new LinkedHashMap<>();
            if (job != null) {
                job.filesOf(task.group(2)).forEach((name, marker) -> files.put(name, marker.length()));
            }
        } else {
            return Optional.empty();
        }
        String prefix = relative == null ? "" : relative + "/";
        Set<String> children = new LinkedHashSet<>();
        List<FileStatus> result = new ArrayList<>();
        for (Map.Entry<String, Long> f : files.entrySet()) {
            if (!f.getKey().startsWith(prefix)) {
                continue;
            }
            String rest = f.getKey().substring(prefix.length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                result.add(statuses.file(key + "/" + rest, f.getValue()));
            } else if (children.add(rest.substring(0, slash))) {
                result.add(statuses.directory(key + "/" + rest.substring(0, slash)));
            }
        }
        return Optional.of(result.toArray(new FileStatus[0]));
    }

    /**
     * A rename in the virtual tree. An attempt directory (or, with algorithm 2, one of its files) renamed
     * into the job: one marker per file (the task commit). A committed task's files renamed into the
     * output: nothing to do, they are there under their attempt-named keys.
     */
    synchronized Optional<Boolean> rename(String source, String destination) throws IOException {
        Matcher attempt = ATTEMPT_PATH.matcher(source);
        if (attempt.matches()) {
            String out = attempt.group(1) == null ? "" : attempt.group(1);
            String relative = attempt.group(3);
            String dir = relative == null ? source : source.substring(0, source.length() - relative.length() - 1);
            List<AttemptOutputs.AttemptFile> written = attempts.peek(dir);
            if (written == null) {
                return Optional.of(false);
            }
            for (AttemptOutputs.AttemptFile file : written) {
                if (relative == null || file.requestedRelative().equals(relative)
                        || file.requestedRelative().startsWith(relative + "/")) {
                    writeMarker(out, attempt.group(2), file);
                    attempts.forget(dir, file);
                }
            }
            return Optional.of(true);
        }
        if (TASK_PATH.matcher(source).matches()) {
            return Optional.of(true);
        }
        return Optional.empty();
    }

    /** Deleting in the virtual tree: an attempt's directory deletes the files it wrote (abort); the rest is free. */
    synchronized Optional<Boolean> delete(String key, java.util.function.Consumer<List<String>> deleteKeys) {
        Matcher attempt = ATTEMPT_PATH.matcher(key);
        if (attempt.matches() && attempt.group(3) == null) {
            List<WrittenFile> written = attempts.take(key);
            List<String> keys = new ArrayList<>();
            for (WrittenFile f : written) {
                keys.add(f.path().toUri().getPath().substring(1));
            }
            if (!keys.isEmpty()) {
                deleteKeys.accept(keys);
            }
            return Optional.of(true);
        }
        return inTemporaryTree(key) ? Optional.of(true) : Optional.empty();
    }

    private void writeMarker(String out, String attemptId, AttemptOutputs.AttemptFile file) throws IOException {
        String[] parts = attemptId.split("_");
        int task = Integer.parseInt(parts[4]);
        long attemptNumber = Long.parseLong(parts[5]);
        String finalKey = file.file().path().toUri().getPath().substring(1);
        String relative = out.isEmpty() ? finalKey : finalKey.substring(out.length() + 1);
        TaskMarker marker = new TaskMarker(task, attemptNumber, file.file().length(), file.file().etag(), relative);
        String job = PartNames.hadoopJobOf(attemptId).orElseThrow();
        store.put(ObjectKey.of(bucket, join(out, TaskMarker.directory(job) + "/" + marker.name())),
                PutBody.of(new byte[0]), PutOptions.defaults());
        manifests.invalidate(out);
    }

    /**
     * The committed tasks of the one job with task markers in {@code out} that the dataset's manifest does
     * not cover yet (one LIST). Two such jobs are refused: a job that failed after some tasks committed
     * would otherwise slip its parts into the next job's commit.
     */
    private Optional<PendingJob> loadCommittedTasks(String out) throws IOException {
        Map<String, List<TaskMarker>> byJob = new TreeMap<>();
        String prefix = join(out, PartNames.INTERNAL_DIRECTORY + "/jobs/");
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, prefix))) {
            while (it.hasNext()) {
                String rest = it.next().name().substring(prefix.length());
                int slash = rest.indexOf('/');
                if (slash > 0) {
                    TaskMarker.parse(rest.substring(slash + 1)).ifPresent(m ->
                            byJob.computeIfAbsent(rest.substring(0, slash), j -> new ArrayList<>()).add(m));
                }
            }
        }
        Set<String> committedJobs = new LinkedHashSet<>();
        Optional<LoadedManifest> current = manifests.at(out);
        current.ifPresent(m -> m.manifest().parts().forEach(p -> committedJobs.add(p.jobId())));
        byJob.keySet().removeAll(committedJobs);
        if (byJob.isEmpty()) {
            return Optional.empty();
        }
        if (byJob.size() > 1) {
            throw new IOException("stork://" + bucket + "/" + out + ": task markers of " + byJob.size()
                    + " uncommitted jobs " + byJob.keySet() + ": another job is writing this output at the same "
                    + "time (Hadoop's classic committer cannot commit two jobs into one directory at once, on any "
                    + "file system; Stork's protocol can: spark.sql.extensions=io.stork.spark.StorkSparkExtensions), "
                    + "or a failed job left its markers (scripts/stork-dataset.sh clean removes them). Nothing was "
                    + "committed or lost");
        }
        Map.Entry<String, List<TaskMarker>> job = byJob.entrySet().iterator().next();
        Map<String, List<TaskMarker>> byTask = new TreeMap<>();
        for (TaskMarker m : TaskMarker.oneAttemptPerTask(job.getValue())) {
            String jobPart = job.getKey().substring("job_".length());
            byTask.computeIfAbsent(String.format("task_%s_r_%06d", jobPart, m.task()), t -> new ArrayList<>()).add(m);
        }
        return Optional.of(PendingJob.of(job.getKey(), byTask, current));
    }

    /**
     * The classic committer's last step, an empty {@code <out>/_SUCCESS}: if a job's task markers are
     * pending, write the Stork manifest naming its parts (after the previous manifest's) instead, and
     * return true; otherwise false (the empty marker is written as usual).
     */
    synchronized boolean commitOnSuccessMarker(String out) throws IOException {
        PendingJob job = pending.remove(out);
        if (job == null) {
            job = loadCommittedTasks(out).orElse(null); // algorithm 2 lists no committed tasks
        }
        if (job == null) {
            return false;
        }
        // The previous manifest was read with the markers, moments ago; a conflict makes the commit point
        // read it again. Same claim, same settled write as Stork's own committers.
        Manifest previous = job.previous().map(LoadedManifest::manifest).orElse(null);
        long now = System.currentTimeMillis();
        List<ManifestPart> written = new ArrayList<>();
        for (List<TaskMarker> markers : job.byTask().values()) {
            for (TaskMarker m : markers) {
                written.add(m.toPart(job.jobId(), now));
            }
        }
        CommitPoint commitPoint = new CommitPoint(new StoreDatasetStorage(store, bucket, out), commitSettings,
                io.stork.hadoop.settings.DatasetPropertyKeys.commitRule());
        try {
            commitPoint.commit(new CommitPoint.Request(job.jobId(), "stork 0.1.0 (classic committer)", written,
                    MergePlan.APPEND, false, Instant.ofEpochMilli(now), previous));
        } finally {
            manifests.invalidate(out);
        }
        manifests.invalidate(out);
        return true;
    }
}
