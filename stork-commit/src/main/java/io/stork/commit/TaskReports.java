package io.stork.commit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkContext$;
import org.apache.spark.TaskContext;
import org.apache.spark.util.CollectionAccumulator;
import scala.Option;

/**
 * Task commits reported to the job commit through Spark itself, for Hadoop committers run by Spark's RDD
 * writers (which give a committer no other way back to the driver): an accumulator the driver registers
 * and hands to the job's tasks in a local property. Spark returns a task's accumulator updates with its
 * result and merges those of one successful attempt per task, before the job commit runs: the attempt
 * Spark's output commit coordinator let commit. So the job commit learns the committed files without a
 * marker PUT per file and a LIST, as Spark SQL's protocol learns them from its task commit messages.
 * Outside a Spark application (plain MapReduce) there is no channel, and the committer writes markers.
 */
final class TaskReports {

    /**
     * One name, not one per job: Spark gives the driver's committer and the tasks' committers different
     * Hadoop job ids (SQL's and Spark's RDD protocols both make one up for the driver), while the local
     * property reaches exactly the tasks of the job the thread runs between setup and commit.
     */
    private static final String PROPERTY = "stork.committer.reports";

    private final SparkContext context;
    private final String property;
    private final CollectionAccumulator<String> accumulator;

    private TaskReports(SparkContext context, String property, CollectionAccumulator<String> accumulator) {
        this.context = context;
        this.property = property;
        this.accumulator = accumulator;
    }

    /**
     * On the driver of a Spark application, in the thread that will run the job: the channel for the job's
     * tasks. Empty elsewhere (in a task, or without Spark).
     */
    static Optional<TaskReports> open(String jobId) throws IOException {
        if (TaskContext.get() != null) {
            return Optional.empty();
        }
        Option<SparkContext> active = SparkContext$.MODULE$.getActive();
        if (active.isEmpty()) {
            return Optional.empty();
        }
        SparkContext context = active.get();
        CollectionAccumulator<String> accumulator = new CollectionAccumulator<>();
        context.register(accumulator, "stork: files committed by the tasks of " + jobId);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(accumulator); // the copy tasks will add to
        }
        context.setLocalProperty(PROPERTY, Base64.getEncoder().encodeToString(bytes.toByteArray()));
        return Optional.of(new TaskReports(context, PROPERTY, accumulator));
    }

    /**
     * In a task: reports the committed files (one entry each) to the job commit, and returns true; false
     * when the job's driver opened no channel (the committer then writes markers).
     */
    static boolean report(String jobId, List<String> entries) throws IOException {
        TaskContext task = TaskContext.get();
        String serialized = task == null ? null : task.getLocalProperty(PROPERTY);
        if (serialized == null) {
            return false;
        }
        CollectionAccumulator<String> accumulator;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(serialized)))) {
            @SuppressWarnings("unchecked")
            CollectionAccumulator<String> read = (CollectionAccumulator<String>) in.readObject();
            accumulator = read; // deserialized in a task, it registers with the task, whose result carries it
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot read the job commit's report channel for " + jobId, e);
        }
        entries.forEach(accumulator::add);
        return true;
    }

    /** On the driver, after the tasks: what the successful attempts reported. */
    List<String> reported() {
        return List.copyOf(accumulator.value());
    }

    /** The job is over: later jobs from this thread do not carry the property. */
    void close() {
        context.setLocalProperty(property, null);
    }
}
