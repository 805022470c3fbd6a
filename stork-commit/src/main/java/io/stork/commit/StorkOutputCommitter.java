package io.stork.commit;

import io.stork.hadoop.StorkFileSystem;
import io.stork.hadoop.WrittenFile;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.TaskMarker;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.output.PathOutputCommitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rename-free commit for Hadoop {@code OutputCommitter} writers over {@code stork://} (RDD
 * {@code saveAsNewAPIHadoopFile}, {@code saveAsNewAPIHadoopDataset}); see docs/commit-protocol.md.
 *
 * <ul>
 *   <li>Work path: Hadoop's classic {@code <out>/_temporary/<n>/_temporary/<attempt>}; the file system
 *       writes every file created there straight to its final, attempt-named key and remembers it.</li>
 *   <li>Task commit, under Spark: no call; the committed files' facts go back with the task's result
 *       ({@link TaskReports}). Elsewhere: one zero-byte marker PUT per file, its name carrying the facts
 *       ({@code _stork/jobs/<job>/<task>@<attempt>@<length>@<etag>@<path>}).</li>
 *   <li>Job commit: the reported files (or one LIST of the markers), then the manifest as for Spark SQL.
 *       When the output format's check before the job found the output absent (through this file
 *       system), the output is new: nothing to read before the manifest is written, and the staging
 *       directory Spark deletes afterwards is known to hold nothing.</li>
 * </ul>
 * A one-task {@code saveAsNewAPIHadoopFile} to a new path is 4 calls: the output check (GET, LIST), the
 * part, the manifest.
 */
public class StorkOutputCommitter extends PathOutputCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(StorkOutputCommitter.class);

    /** How recent the output format's absence check must be for the job to count its output as new. */
    private static final java.time.Duration CHECKED_BEFORE_JOB = java.time.Duration.ofMinutes(1);

    private final Path outputPath;
    private final Path workPath;
    private final String jobId;

    // Driver side, between setupJob and commitJob/abortJob.
    private boolean knownEmpty;
    private java.util.Optional<TaskReports> reports = java.util.Optional.empty();
    private java.util.Optional<LosingAttempts> attempts = java.util.Optional.empty();

    public StorkOutputCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
        super(outputPath, context);
        this.outputPath = outputPath;
        this.jobId = context.getJobID().toString();
        this.workPath = new Path(outputPath, "_temporary/" + context.getConfiguration()
                .getInt("mapreduce.job.application.attempt.id", 0) + "/_temporary/" + context.getTaskAttemptID());
    }

    @Override
    public Path getOutputPath() {
        return outputPath;
    }

    @Override
    public Path getWorkPath() {
        return workPath;
    }

    private StorkFileSystem storkFileSystem(JobContext context) throws IOException {
        FileSystem fs = outputPath.getFileSystem(context.getConfiguration());
        if (!(fs instanceof StorkFileSystem stork)) {
            throw new IOException("StorkOutputCommitter writes through stork:// only, not " + fs.getUri()
                    + ": bind it with mapreduce.outputcommitter.factory.scheme.stork");
        }
        return stork;
    }

    private Path markers(FileSystem fs, JobContext context) {
        return new Path(fs.makeQualified(outputPath), TaskMarker.directory(context.getJobID().toString()));
    }

    private static String keyOf(FileSystem fs, Path path) {
        return io.stork.hadoop.namespace.KeyPaths.keyOf(fs.makeQualified(path));
    }

    /** Nothing to create: no directories, no markers. Learns whether the output is new; opens the report channel. */
    @Override
    public void setupJob(JobContext context) throws IOException {
        StorkFileSystem fs = storkFileSystem(context);
        knownEmpty = fs.commitIntegration().seenAbsentWithin(keyOf(fs, outputPath), CHECKED_BEFORE_JOB);
        reports = TaskReports.open(jobId);
        attempts = reports.isPresent() ? LosingAttempts.watch() : java.util.Optional.empty();
    }

    @Override
    public void setupTask(TaskAttemptContext context) throws IOException {
        StorkFileSystem fs = storkFileSystem(context);
        fs.commitIntegration().expectAttempt(keyOf(fs, workPath));
    }

    @Override
    public boolean needsTaskCommit(TaskAttemptContext context) {
        return true;
    }

    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
        StorkFileSystem fs = storkFileSystem(context);
        TaskAttemptID attempt = context.getTaskAttemptID();
        DatasetCommitter committer = new DatasetCommitter(fs, outputPath, jobId);
        List<TaskMarker> committed = new ArrayList<>();
        for (WrittenFile file : fs.commitIntegration().takeAttemptOutputs(keyOf(fs, workPath))) {
            committed.add(new TaskMarker(attempt.getTaskID().getId(), attempt.getId(), file.length(),
                    file.etag(), committer.relativePath(file.path())));
        }
        if (TaskReports.report(jobId, committed.stream().map(TaskMarker::name).toList())) {
            return;
        }
        for (TaskMarker marker : committed) {
            fs.createFile(new Path(markers(fs, context), marker.name())).overwrite(true).recursive().build().close();
        }
    }

    @Override
    public void abortTask(TaskAttemptContext context) throws IOException {
        StorkFileSystem fs = storkFileSystem(context);
        for (WrittenFile file : fs.commitIntegration().takeAttemptOutputs(keyOf(fs, workPath))) {
            try {
                fs.delete(file.path(), false);
            } catch (IOException e) {
                LOG.warn("Task attempt {}: could not delete {} ({}); no manifest names it",
                        context.getTaskAttemptID(), file.path(), e.toString());
            }
        }
    }

    @Override
    public void commitJob(JobContext context) throws IOException {
        StorkFileSystem fs = storkFileSystem(context);
        List<ManifestPart> parts = committedParts(fs, context);
        var manifest = new DatasetCommitter(fs, outputPath, jobId).commit(parts, ReplacePlan.NOTHING, knownEmpty,
                Instant.now());
        if (knownEmpty) {
            // Spark deletes its staging directory after an RDD write; a new output has none.
            fs.commitIntegration().declareAbsent(keyOf(fs, new Path(outputPath,
                    ".spark-staging-" + context.getJobID().getId())));
        }
        reports.ifPresent(TaskReports::close);
        LOG.info("Committed job {} to {}: generation {}, {} parts ({} new)", jobId, fs.makeQualified(outputPath),
                manifest.generation(), manifest.parts().size(), parts.size());
        attempts.ifPresent(LosingAttempts::stop);
        if (attempts.isPresent() && attempts.get().sawTrouble()) {
            LosingAttempts.removeParts(fs, outputPath, manifest, parts);
        }
    }

    /** The parts the job's committed tasks reported, through Spark or in markers (one listing; one attempt per task). */
    private List<ManifestPart> committedParts(FileSystem fs, JobContext context) throws IOException {
        List<TaskMarker> markers = new ArrayList<>();
        if (reports.isPresent()) {
            for (String name : reports.get().reported()) {
                markers.add(TaskMarker.parse(name).orElseThrow(
                        () -> new IOException("unreadable task report " + name + " of job " + jobId)));
            }
            return toParts(markers);
        }
        RemoteIterator<LocatedFileStatus> it;
        try {
            it = fs.listFiles(markers(fs, context), false);
        } catch (FileNotFoundException e) {
            return List.of(); // no task wrote anything
        }
        while (it.hasNext()) {
            String name = it.next().getPath().getName();
            markers.add(TaskMarker.parse(name).orElseThrow(
                    () -> new IOException("unreadable task marker " + name + " of job " + jobId)));
        }
        return toParts(markers);
    }

    private List<ManifestPart> toParts(List<TaskMarker> markers) {
        long now = System.currentTimeMillis();
        List<ManifestPart> parts = new ArrayList<>();
        for (TaskMarker marker : TaskMarker.oneAttemptPerTask(markers)) {
            parts.add(marker.toPart(jobId, now));
        }
        return parts;
    }

    @Override
    public void abortJob(JobContext context, JobStatus.State state) throws IOException {
        StorkFileSystem fs = storkFileSystem(context);
        List<Path> doomed = new ArrayList<>();
        for (ManifestPart part : committedParts(fs, context)) {
            doomed.add(new Path(fs.makeQualified(outputPath), part.path()));
        }
        new DatasetCommitter(fs, outputPath, jobId).deleteUncommitted(doomed);
        reports.ifPresent(TaskReports::close);
        attempts.ifPresent(LosingAttempts::stop);
    }
}
