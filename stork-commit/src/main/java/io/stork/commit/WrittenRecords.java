package io.stork.commit;

import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;

/**
 * Record counts of a task's files, handed from the counting output writer (stork-spark's extension) to
 * the same task's commit through the task attempt's own configuration: Spark gives the writer factory and
 * the commit protocol the same {@code TaskAttemptContext}, so the count travels with the task and nothing
 * outlives it. (Spark computes its own write statistics only after the task commit, so they cannot serve.)
 */
public final class WrittenRecords {

    private static final String PREFIX = "stork.task.records.";

    private WrittenRecords() {
    }

    /** A file (the path string the commit protocol handed out) was closed with this many records. */
    public static void record(Configuration taskConf, String path, long records) {
        taskConf.setLong(PREFIX + path, records);
    }

    static OptionalLong take(Configuration taskConf, String path) {
        String value = taskConf.get(PREFIX + path);
        if (value == null) {
            return OptionalLong.empty();
        }
        taskConf.unset(PREFIX + path);
        return OptionalLong.of(Long.parseLong(value));
    }
}
