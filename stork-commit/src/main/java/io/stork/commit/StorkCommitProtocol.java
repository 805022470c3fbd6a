package io.stork.commit;

import io.stork.hadoop.OutputIntents;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.io.IOException;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.internal.io.FileNameSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark SQL's commit protocol, rename-free (docs/commit-protocol.md). Enable with
 * {@code spark.sql.sources.commitProtocolClass=io.stork.commit.StorkCommitProtocol}.
 *
 * <ul>
 *   <li>Task: each file goes straight to its final name, which carries the job id and the task attempt
 *       ({@link PartNames}), so attempts never collide. Task commit makes no call: it reports the files,
 *       with the size and ETag their writes returned, to the driver; Spark's output commit coordinator
 *       lets one attempt per task commit.</li>
 *   <li>Job: one manifest, {@code _SUCCESS}, naming exactly the committed parts; readers trust it.</li>
 *   <li>Abort: an aborted task deletes its files (best effort); a failed job writes no manifest.</li>
 *   <li>Overwrite: Spark's request to delete the old data first ({@link #deleteWithJob}) is recorded and
 *       applied by the new manifest, so readers switch generations at once and a failed job loses nothing.</li>
 * </ul>
 */
public class StorkCommitProtocol extends FileCommitProtocol implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(StorkCommitProtocol.class);

    private final String jobId;
    private final String outputPath;
    private final boolean dynamicPartitionOverwrite;

    // Driver side.
    private ReplacePlan replacePlan = ReplacePlan.NOTHING;
    private Instant jobStart;
    private boolean knownEmpty;
    private transient List<ManifestPart> committedParts;
    private transient java.util.Optional<LosingAttempts> attempts;

    // Task side: the files of this task attempt.
    private transient List<Path> taskFiles;

    public StorkCommitProtocol(String jobId, String outputPath, boolean dynamicPartitionOverwrite) {
        this.jobId = jobId;
        this.outputPath = outputPath;
        this.dynamicPartitionOverwrite = dynamicPartitionOverwrite;
        if (dynamicPartitionOverwrite) {
            replacePlan = replacePlan.withWrittenPartitions();
        }
        // Before Spark checks whether the output exists, to the file system instance it checks with.
        intents(new Path(outputPath), activeHadoopConf()).ifPresent(i -> i.announce(qualified(outputPath)));
    }

    public StorkCommitProtocol(String jobId, String outputPath) {
        this(jobId, outputPath, false);
    }

    private Path root() {
        return new Path(outputPath);
    }

    /** The announcements of the file system instance a path's checks go through, if it takes them (stork://). */
    private static java.util.Optional<OutputIntents> intents(Path path, org.apache.hadoop.conf.Configuration conf) {
        if (conf == null || !"stork".equals(path.toUri().getScheme())) {
            return java.util.Optional.empty();
        }
        try {
            FileSystem fs = path.getFileSystem(conf);
            return fs instanceof OutputIntents.Announceable announceable
                    ? java.util.Optional.of(announceable.outputIntents()) : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty(); // only a saving is lost
        }
    }

    private static Path qualified(String outputPath) {
        return new Path(outputPath); // Spark hands protocols qualified output paths
    }

    /** The driver's Hadoop configuration, where Spark is about to check the output with the same file system. */
    private static org.apache.hadoop.conf.Configuration activeHadoopConf() {
        // Spark instantiates the protocol on the driver, inside a running application.
        return org.apache.spark.SparkContext.getOrCreate().hadoopConfiguration();
    }

    // ---- job (driver) ----

    @Override
    public void setupJob(JobContext jobContext) {
        jobStart = Instant.now();
        // Spark checked existence just before (unless appending): reuse its answer, which cost one LIST.
        knownEmpty = intents(root(), jobContext.getConfiguration())
                .flatMap(i -> i.takeExistence(qualified(outputPath))).map(exists -> !exists).orElse(false);
        committedParts = new ArrayList<>();
        attempts = LosingAttempts.watch();
    }

    private void stopWatching() {
        if (attempts != null) {
            attempts.ifPresent(LosingAttempts::stop);
        }
    }

    @Override
    public void onTaskCommit(TaskCommitMessage message) {
        if (message.obj() instanceof TaskOutput output && committedParts != null) {
            committedParts.addAll(output.parts());
        }
    }

    @Override
    public void commitJob(JobContext jobContext, Seq<TaskCommitMessage> taskCommits) {
        try {
            commitJob(jobContext, CollectionConverters.asJava(taskCommits));
        } catch (IOException e) {
            throw Rethrow.unchecked(e);
        }
    }

    private void commitJob(JobContext jobContext, List<TaskCommitMessage> taskCommits) throws IOException {
        List<ManifestPart> parts = new ArrayList<>();
        java.util.Set<Integer> stages = new java.util.HashSet<>();
        java.util.Set<Long> committedAttempts = new java.util.HashSet<>();
        for (TaskCommitMessage message : taskCommits) {
            if (message.obj() instanceof TaskOutput output) {
                parts.addAll(output.parts());
                stages.add(output.stage());
                committedAttempts.add(output.attempt());
            }
        }
        FileSystem fs = root().getFileSystem(jobContext.getConfiguration());
        DatasetCommitter committer = new DatasetCommitter(fs, root(), jobId);
        Instant createdAt = jobStart == null ? Instant.now() : jobStart;
        java.util.Map<String, String> properties = DatasetProperties.of(jobContext.getConfiguration());
        String relayoutOf = jobContext.getConfiguration().get(RelayoutPlan.GENERATION_OPTION);
        Manifest manifest;
        if (relayoutOf == null || relayoutOf.isBlank()) {
            manifest = committer.commit(parts, replacePlan, knownEmpty, createdAt, properties);
        } else {
            manifest = committer.commitRelayout(parts, relayoutGeneration(relayoutOf), createdAt, properties);
        }
        LOG.info("Committed job {} to {}: generation {} ({}), {} parts ({} new)", jobId, fs.makeQualified(root()),
                manifest.generation(), manifest.operation().jsonName(), manifest.parts().size(), parts.size());
        DatasetFiles.writeAfterCommit(fs, root(), DatasetFiles.of(jobContext.getConfiguration()));
        stopWatching();
        if (attempts != null && attempts.isPresent() && attempts.get().lostAny(stages, committedAttempts)) {
            LosingAttempts.removeParts(fs, root(), manifest, parts);
        }
    }

    /** The generation a relayout write read; it must be an append (it replaces exactly what it read). */
    private long relayoutGeneration(String value) throws IOException {
        if (replacePlan.replacesAnything()) {
            throw new IOException("a relayout (" + RelayoutPlan.GENERATION_OPTION + ") is written in append mode: it "
                    + "replaces exactly the generation it read, nothing else");
        }
        try {
            long generation = Long.parseLong(value.trim());
            if (generation >= 1) {
                return generation;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IOException(RelayoutPlan.GENERATION_OPTION + " must be the generation the relayout read (1, 2, ...), "
                + "not '" + value + "'");
    }

    /**
     * Deletes the parts of tasks that had committed, unless the manifest may name them (a commit whose
     * answer was lost can have gone through although Spark was told it failed).
     */
    @Override
    public void abortJob(JobContext jobContext) {
        stopWatching();
        if (committedParts == null || committedParts.isEmpty()) {
            return;
        }
        try {
            FileSystem fs = root().getFileSystem(jobContext.getConfiguration());
            List<Path> files = new ArrayList<>();
            for (ManifestPart part : committedParts) {
                files.add(new Path(fs.makeQualified(root()), part.path()));
            }
            new DatasetCommitter(fs, root(), jobId).deleteUncommitted(files);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Job {} aborted; its parts under {} were not all deleted ({}): no manifest names them",
                    jobId, outputPath, e.toString());
        }
    }

    /**
     * Spark calls this before an overwrite to clear the old data. Inside the dataset, the deletion is
     * deferred to the new manifest (see {@link ReplacePlan}); elsewhere it is done now.
     */
    @Override
    public boolean deleteWithJob(FileSystem fs, Path path, boolean recursive) {
        try {
            return deferDelete(fs, path, recursive);
        } catch (IOException e) {
            throw Rethrow.unchecked(e);
        }
    }

    private boolean deferDelete(FileSystem fs, Path path, boolean recursive) throws IOException {
        Path qualifiedRoot = fs.makeQualified(root());
        Path qualified = fs.makeQualified(path);
        if (qualified.equals(qualifiedRoot)) {
            replacePlan = replacePlan.withEverything();
            return true;
        }
        String rootText = qualifiedRoot.toUri().getPath();
        String pathText = qualified.toUri().getPath();
        if (pathText.startsWith(rootText.endsWith("/") ? rootText : rootText + "/")) {
            replacePlan = replacePlan.withDirectory(new DatasetCommitter(fs, qualifiedRoot, jobId).relativePath(qualified));
            return true;
        }
        return fs.delete(path, recursive);
    }

    // ---- task (executor) ----

    @Override
    public void setupTask(TaskAttemptContext taskContext) {
        taskFiles = new ArrayList<>();
    }

    @Override
    public String newTaskTempFile(TaskAttemptContext taskContext, Option<String> dir, String ext) {
        return newTaskTempFile(taskContext, dir, new FileNameSpec("", ext));
    }

    @Override
    public String newTaskTempFile(TaskAttemptContext taskContext, Option<String> dir, FileNameSpec spec) {
        TaskAttemptID attempt = taskContext.getTaskAttemptID();
        String name = spec.prefix() + PartNames.partFileName(attempt.getTaskID().getId(), jobId, attempt.getId(),
                spec.suffix());
        Path directory = dir.isDefined() ? new Path(root(), dir.get()) : root();
        Path file = new Path(directory, name);
        if (taskFiles == null) {
            taskFiles = new ArrayList<>();
        }
        taskFiles.add(file);
        return file.toString();
    }

    @Override
    public String newTaskTempFileAbsPath(TaskAttemptContext taskContext, String absoluteDir, String ext) {
        return newTaskTempFileAbsPath(taskContext, absoluteDir, new FileNameSpec("", ext));
    }

    @Override
    public String newTaskTempFileAbsPath(TaskAttemptContext taskContext, String absoluteDir, FileNameSpec spec) {
        throw new UnsupportedOperationException("Stork's commit protocol does not write partitions at custom "
                + "locations outside the dataset (" + absoluteDir + "): one manifest covers one directory tree");
    }

    @Override
    public TaskCommitMessage commitTask(TaskAttemptContext taskContext) {
        try {
            return describeTaskOutput(taskContext);
        } catch (IOException e) {
            throw Rethrow.unchecked(e);
        }
    }

    private TaskCommitMessage describeTaskOutput(TaskAttemptContext taskContext) throws IOException {
        List<Path> files = taskFiles == null ? List.of() : taskFiles;
        if (files.isEmpty()) {
            return new TaskCommitMessage(taskOutput(List.of(), taskContext));
        }
        FileSystem fs = root().getFileSystem(taskContext.getConfiguration());
        DatasetCommitter committer = new DatasetCommitter(fs, root(), jobId);
        TaskAttemptID attempt = taskContext.getTaskAttemptID();
        List<ManifestPart> parts = new ArrayList<>(files.size());
        for (Path file : files) {
            ManifestPart part = committer.describe(file, attempt.getTaskID().getId(), attempt.getId());
            WrittenRecords.Facts facts = WrittenRecords.take(taskContext.getConfiguration(), file.toString());
            if (facts.records().isPresent()) {
                part = part.withRecords(facts.records().getAsLong());
            }
            parts.add(facts.statsJson() == null ? part : part.withStats(facts.statsJson()));
        }
        return new TaskCommitMessage(taskOutput(parts, taskContext));
    }

    /** Spark's writers number a task attempt's job by its stage and the attempt by Spark's attempt id. */
    private static TaskOutput taskOutput(List<ManifestPart> parts, TaskAttemptContext taskContext) {
        TaskAttemptID attempt = taskContext.getTaskAttemptID();
        return new TaskOutput(parts, attempt.getJobID().getId(), attempt.getId());
    }

    @Override
    public void abortTask(TaskAttemptContext taskContext) {
        List<Path> files = taskFiles == null ? List.of() : taskFiles;
        if (files.isEmpty()) {
            return;
        }
        try {
            FileSystem fs = root().getFileSystem(taskContext.getConfiguration());
            for (Path file : files) {
                WrittenRecords.take(taskContext.getConfiguration(), file.toString());
                try {
                    fs.delete(file, false);
                } catch (IOException e) {
                    LOG.warn("Task attempt {}: could not delete {} ({}); no manifest names it",
                            taskContext.getTaskAttemptID(), file, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("Task attempt {} aborted; its files were not deleted ({})", taskContext.getTaskAttemptID(), e.toString());
        }
    }

    @Override
    public String toString() {
        return "StorkCommitProtocol(job " + jobId + ", " + outputPath
                + (dynamicPartitionOverwrite ? ", dynamic partition overwrite" : "") + ")";
    }
}
