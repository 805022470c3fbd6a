package io.stork.spark.it;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.spark.TaskContext;

/**
 * Which fault a task attempt suffers in a campaign round: decided from the round's seed, the partition and
 * the attempt, so the driver and every executor agree without talking. Only first attempts (in the first
 * stage attempt) are hurt, so every task can succeed on a retry and the job's output is known exactly.
 */
final class FaultPlan implements Serializable {

    static final String SEED_PROPERTY = "stork.campaign.seed";

    enum Fault {
        NONE,
        /** Throws before the first row reaches the writer (the part is created, nothing written). */
        FAIL_BEFORE_WRITE,
        /** Throws after half the rows: an open upload is abandoned. */
        FAIL_MID_WRITE,
        /** The part is written and closed; the task commit then fails. */
        FAIL_AFTER_WRITE_BEFORE_COMMIT,
        /** Runs slowly, so that speculation starts a second attempt that races it. */
        SLOW,
        /** The executor's JVM halts mid-write (a lost executor). */
        KILL_EXECUTOR
    }

    private FaultPlan() {
    }

    /**
     * Each round deals every kind of fault (and NONE) to one of its six partitions, in an order drawn from
     * the round's seed: every round exercises each failure point, at a random place in the job.
     */
    static Fault faultOf(long seed, int partition) {
        List<Fault> deal = new ArrayList<>(List.of(Fault.values()));
        Collections.shuffle(deal, new Random(seed));
        return partition < deal.size() ? deal.get(partition) : Fault.NONE;
    }

    /** The fault for the running task attempt, or NONE (retries, speculative copies, no seed). */
    static Fault current() {
        TaskContext task = TaskContext.get();
        String seed = task == null ? null : task.getLocalProperty(SEED_PROPERTY);
        if (seed == null || task.attemptNumber() != 0 || task.stageAttemptNumber() != 0) {
            return Fault.NONE;
        }
        return faultOf(Long.parseLong(seed), task.partitionId());
    }
}
