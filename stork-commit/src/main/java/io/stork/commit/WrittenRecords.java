package io.stork.commit;

import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;

/**
 * Facts about a task's files gathered while writing them (record counts, data-skipping statistics), handed
 * from the output writer (stork-spark's extension) to the same task's commit through the task attempt's
 * own configuration: Spark gives the writer factory and the commit protocol the same
 * {@code TaskAttemptContext}, so the facts travel with the task and nothing outlives it. (Spark computes
 * its own write statistics only after the task commit, so they cannot serve.)
 */
public final class WrittenRecords {

    private static final String PREFIX = "stork.task.records.";
    private static final String STATS_PREFIX = "stork.task.stats.";

    /** What the writer reported for one file. */
    record Facts(OptionalLong records, String statsJson) {
    }

    private WrittenRecords() {
    }

    /** A file (the path string the commit protocol handed out) was closed with this many records. */
    public static void record(Configuration taskConf, String path, long records) {
        taskConf.setLong(PREFIX + path, records);
    }

    /** As {@link #record(Configuration, String, long)}, with the file's statistics (a JSON object) when not null. */
    public static void record(Configuration taskConf, String path, long records, String statsJson) {
        record(taskConf, path, records);
        if (statsJson != null) {
            taskConf.set(STATS_PREFIX + path, statsJson);
        }
    }

    static Facts take(Configuration taskConf, String path) {
        String value = taskConf.get(PREFIX + path);
        String stats = taskConf.get(STATS_PREFIX + path);
        taskConf.unset(PREFIX + path);
        taskConf.unset(STATS_PREFIX + path);
        return new Facts(value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value)), stats);
    }
}
