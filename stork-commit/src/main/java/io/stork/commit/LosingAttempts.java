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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task attempts of one write job that the driver saw start and that did not commit: attempts that
 * failed, lost a speculation race or died with their executor. An attempt usually deletes its own parts
 * when it aborts; one whose executor died cannot, and its parts would stay in the store, invisible through
 * Stork but listed and billed. After the job's commit, {@link #removeParts} deletes the parts of those
 * attempts (their names carry the job and the attempt: one listing and one bulk delete, only in jobs where
 * an attempt was lost, so the clean path keeps its calls). What the driver cannot know (it died itself,
 * or a losing attempt writes after the listing) stays for clean and vacuum.
 *
 * <p>Registered on the driver's listener bus for the job's lifetime by {@link StorkCommitProtocol}; the
 * attempt number in a part's name is Spark's task attempt id, which is the id this listener sees.
 */
final class LosingAttempts extends SparkListener {

    private static final Logger LOG = LoggerFactory.getLogger(LosingAttempts.class);

    /** A task attempt as a part's name carries it: the task (partition) and the attempt id. */
    record Attempt(int task, long attempt) {
    }

    private final Map<Long, int[]> started = new ConcurrentHashMap<>(); // attempt id -> {stage, partition}
    private final Set<Long> ended = ConcurrentHashMap.newKeySet();

    @Override
    public void onTaskStart(SparkListenerTaskStart event) {
        started.put(nameId(event.taskInfo().taskId()), new int[] {event.stageId(), event.taskInfo().partitionId()});
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd event) {
        ended.add(nameId(event.taskInfo().taskId()));
    }

    /** Spark's file writers name an attempt by its id's low 31 bits. */
    private static long nameId(long taskId) {
        return (int) taskId & Integer.MAX_VALUE;
    }

    /**
     * The attempts of {@code stages} other than the committed ones. The listener bus delivers events
     * after the scheduler acts: waits (up to {@code patience}) until it has delivered the end of every
     * committed attempt, after which every attempt started before the job ended has been seen.
     */
    List<Attempt> losers(Set<Integer> stages, Set<Long> committed, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!ended.containsAll(committed) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<Attempt> losers = new ArrayList<>();
        started.forEach((id, where) -> {
            if (stages.contains(where[0]) && !committed.contains(id)) {
                losers.add(new Attempt(where[1], id));
            }
        });
        return losers;
    }

    /**
     * Deletes the parts the job's losing attempts left under {@code root} that {@code manifest} does not
     * name. Best effort: the commit stands whatever happens here. Returns how many were deleted.
     */
    static int removeParts(FileSystem fs, Path root, String jobId, Manifest manifest, List<Attempt> losers) {
        Set<String> keys = new HashSet<>();
        losers.forEach(a -> keys.add(jobId + "/" + a.task() + "/" + a.attempt()));
        Set<String> named = new HashSet<>();
        for (ManifestPart part : manifest.parts()) {
            named.add(part.path());
        }
        try {
            Path qualifiedRoot = fs.makeQualified(root);
            List<Path> doomed = new ArrayList<>();
            for (Path object : objectsUnder(fs, qualifiedRoot)) {
                String key = PartNames.attemptOf(object.getName()).orElse(null);
                if (key != null && keys.contains(key)
                        && !named.contains(DatasetCommitter.relativePath(qualifiedRoot, object))) {
                    doomed.add(object);
                }
            }
            int failures = doomed.isEmpty() ? 0 : DatasetCommitter.deleteAll(fs, qualifiedRoot, doomed);
            LOG.info("Job {}: {} task attempts did not commit; removed {} parts they left under {}", jobId,
                    losers.size(), doomed.size() - failures, qualifiedRoot);
            return doomed.size() - failures;
        } catch (IOException | RuntimeException e) {
            LOG.warn("Job {}: committed; the parts of its {} losing attempts were not all removed ({}): no "
                    + "manifest names them, clean removes them", jobId, losers.size(), e.toString());
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
