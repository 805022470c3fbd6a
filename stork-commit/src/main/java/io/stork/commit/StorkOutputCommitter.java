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
 *   <li>Task commit: one small PUT per file, a zero-byte marker whose name carries the file's facts
 *       ({@code _stork/jobs/<job>/<task>@<attempt>@<length>@<etag>@<path>}).</li>
 *   <li>Job commit: one LIST of the job's markers (per 1,000 files), then the manifest as for Spark SQL
 *       (reading the previous manifest first, since this API does not say whether the output is new).</li>
 * </ul>
 */
public class StorkOutputCommitter extends PathOutputCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(StorkOutputCommitter.class);

    private final Path outputPath;
    private final Path workPath;
    private final String jobId;

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

    @Override
    public void setupJob(JobContext context) {
        // Nothing to create: no directories, no markers.
    }

    @Override
    public void setupTask(TaskAttemptContext context) throws IOException {
        storkFileSystem(context).expectAttempt(workPath);
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
        for (WrittenFile file : fs.takeAttemptOutputs(workPath)) {
            TaskMarker marker = new TaskMarker(attempt.getTaskID().getId(), attempt.getId(), file.length(),
                    file.etag(), committer.relativePath(file.path()));
            fs.createFile(new Path(markers(fs, context), marker.name())).overwrite(true).recursive().build().close();
        }
    }

    @Override
    public void abortTask(TaskAttemptContext context) throws IOException {
        StorkFileSystem fs = storkFileSystem(context);
        for (WrittenFile file : fs.takeAttemptOutputs(workPath)) {
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
        var manifest = new DatasetCommitter(fs, outputPath, jobId).commit(parts, ReplacePlan.NOTHING, false,
                Instant.now());
        LOG.info("Committed job {} to {}: generation {}, {} parts ({} new)", jobId, fs.makeQualified(outputPath),
                manifest.generation(), manifest.parts().size(), parts.size());
    }

    /** The parts the job's committed tasks reported, from one listing of their markers (one attempt per task). */
    private List<ManifestPart> committedParts(FileSystem fs, JobContext context) throws IOException {
        List<TaskMarker> markers = new ArrayList<>();
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
    }
}
