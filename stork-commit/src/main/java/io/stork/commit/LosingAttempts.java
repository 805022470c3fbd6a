package io.stork.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.Success$;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the driver saw of a write job's task attempts that did not commit: attempts that failed, lost a
 * speculation race or died with their executor. An attempt usually deletes its own parts when it aborts;
 * one whose executor died cannot, and one that loses after writing may not, so their parts would stay in
 * the store, invisible through Stork but listed and billed. After the job's commit, {@link #removeParts}
 * deletes the parts that carry the job's name and that its manifest does not name (one listing and one
 * bulk delete, only in jobs where an attempt was lost: the clean path keeps its calls). What the driver
 * cannot know (it died itself, or a losing attempt writes after the listing) stays for clean and vacuum.
 *
 * <p>A listener on the driver's bus for the job's lifetime, opened by the committer's job setup and closed
 * by its commit or abort: no state outlives the job.
 */
final class LosingAttempts extends SparkListener {

    private static final Logger LOG = LoggerFactory.getLogger(LosingAttempts.class);

    /** How long a job commit waits for the bus to deliver its tasks' ends (usually milliseconds). */
    static final Duration PATIENCE = Duration.ofSeconds(5);

    private final SparkContext context;
    private final Map<Long, Integer> stageOf = new ConcurrentHashMap<>(); // attempt id as parts name it -> stage
    private final Set<Long> ended = ConcurrentHashMap.newKeySet();
    private volatile boolean troubled; // an attempt failed, was killed, or was launched speculatively

    private LosingAttempts(SparkContext context) {
        this.context = context;
    }

    /** On the driver of a Spark application: a listener for the job, registered. Empty elsewhere. */
    static Optional<LosingAttempts> watch() {
        if (TaskContext.get() != null) {
            return Optional.empty();
        }
        scala.Option<SparkContext> active = org.apache.spark.SparkContext$.MODULE$.getActive();
        if (active.isEmpty()) {
            return Optional.empty();
        }
        LosingAttempts attempts = new LosingAttempts(active.get());
        active.get().addSparkListener(attempts);
        return Optional.of(attempts);
    }

    void stop() {
        context.removeSparkListener(this);
    }

    @Override
    public void onTaskStart(SparkListenerTaskStart event) {
        stageOf.put(nameId(event.taskInfo().taskId()), event.stageId());
        if (event.taskInfo().speculative()) {
            troubled = true;
        }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd event) {
        ended.add(nameId(event.taskInfo().taskId()));
        if (event.reason() != Success$.MODULE$) {
            troubled = true;
        }
    }

    /** Spark SQL's file writers name an attempt by its id's low 31 bits. */
    private static long nameId(long taskId) {
        return (int) taskId & Integer.MAX_VALUE;
    }

    /**
     * Whether an attempt of {@code stages} other than the {@code committed} ones started (Spark SQL, whose
     * parts carry the attempt id). The bus delivers events after the scheduler acts: waits (up to
     * {@link #PATIENCE}) until it has delivered the end of every committed attempt, after which every
     * attempt started before the job ended has been seen.
     */
    boolean lostAny(Set<Integer> stages, Set<Long> committed) {
        awaitEnds(committed);
        for (Map.Entry<Long, Integer> e : stageOf.entrySet()) {
            if (stages.contains(e.getValue()) && !committed.contains(e.getKey())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether any attempt failed, was killed or was launched speculatively while the job ran (RDD writes,
     * whose attempt numbers are not the ids the bus reports). A concurrent job's trouble costs this one
     * a listing, never a part: only parts carrying this job's name are removed.
     */
    boolean sawTrouble() {
        return troubled;
    }

    private void awaitEnds(Set<Long> committed) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!ended.containsAll(committed) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Deletes the attempt parts under {@code root} written by the job that wrote {@code written} (as their
     * names carry it) that {@code manifest} does not name: the job has committed, so none of them ever
     * will be. Best effort: the commit stands whatever happens here. Returns how many were deleted.
     */
    static int removeParts(FileSystem fs, Path root, Manifest manifest, List<ManifestPart> written) {
        Set<String> jobs = new HashSet<>();
        written.forEach(p -> PartNames.writingJobOf(PartNames.fileName(p.path())).ifPresent(jobs::add));
        if (jobs.isEmpty()) {
            return 0;
        }
        Set<String> named = new HashSet<>();
        manifest.parts().forEach(p -> named.add(p.path()));
        try {
            Path qualifiedRoot = fs.makeQualified(root);
            List<Path> doomed = new ArrayList<>();
            for (Path object : objectsUnder(fs, qualifiedRoot)) {
                Optional<String> job = PartNames.writingJobOf(object.getName());
                if (job.isPresent() && jobs.contains(job.get())
                        && !named.contains(DatasetCommitter.relativePath(qualifiedRoot, object))) {
                    doomed.add(object);
                }
            }
            int failures = doomed.isEmpty() ? 0 : DatasetCommitter.deleteAll(fs, qualifiedRoot, doomed);
            LOG.info("Job {}: attempts were lost; removed {} parts they left under {}", jobs, doomed.size() - failures,
                    qualifiedRoot);
            return doomed.size() - failures;
        } catch (IOException | RuntimeException e) {
            LOG.warn("Job {}: committed; the parts of its lost attempts were not all removed ({}): no manifest "
                    + "names them, clean removes them", jobs, e.toString());
            return 0;
        }
    }

    /** Every object under the directory, named by a manifest or not. */
    private static List<Path> objectsUnder(FileSystem fs, Path root) throws IOException {
        if (fs instanceof io.stork.hadoop.StorkFileSystem stork) {
            return stork.datasets().objectsUnder(root);
        }
        List<Path> objects = new ArrayList<>();
        var files = fs.listFiles(root, true); // a file system whose listings are the objects
        while (files.hasNext()) {
            objects.add(files.next().getPath());
        }
        return objects;
    }
}
