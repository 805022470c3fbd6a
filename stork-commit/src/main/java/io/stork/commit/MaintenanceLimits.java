package io.stork.commit;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;

/**
 * What maintenance may delete, whatever its command line says. An attempt part no manifest names may
 * belong to a job still running, which will name it when it commits: {@code clean} and {@code vacuum}
 * refuse periods under the floor ({@value #FLOOR_KEY}, 24 hours), unless the check is turned off on
 * purpose ({@value #CHECK_KEY}{@code =false}, as Delta Lake's {@code retentionDurationCheck}).
 *
 * @param floor          the shortest period a command may use
 * @param checkRetention false: shorter periods are taken as given (tests, experts)
 */
record MaintenanceLimits(Duration floor, boolean checkRetention) {

    static final String FLOOR_KEY = "fs.stork.maintenance.floor";
    static final String CHECK_KEY = "fs.stork.maintenance.retention.check";
    static final Duration DEFAULT_FLOOR = Duration.ofHours(24);

    /** The limits for a bucket: its own keys ({@code fs.stork.bucket.<b>.maintenance.*}) over the global ones. */
    static MaintenanceLimits of(Configuration conf, String bucket) {
        String floorKey = perBucket(conf, bucket, FLOOR_KEY);
        String checkKey = perBucket(conf, bucket, CHECK_KEY);
        String floorText = conf.getTrimmed(floorKey);
        Duration floor = floorText == null ? DEFAULT_FLOOR : ToolArguments.duration(floorKey, floorText);
        String check = conf.getTrimmed(checkKey, "true");
        if (!check.equals("true") && !check.equals("false")) {
            throw new ToolArguments.UsageException(checkKey + " must be true or false, not '" + check + "'");
        }
        return new MaintenanceLimits(floor, Boolean.parseBoolean(check));
    }

    private static String perBucket(Configuration conf, String bucket, String key) {
        String own = bucket == null ? null : key.replace("fs.stork.", "fs.stork.bucket." + bucket + ".");
        return own != null && conf.get(own) != null ? own : key;
    }

    /** Fails, naming the setting that allows it, if {@code period} ({@code what}) is under the floor. */
    Duration check(Duration period, String what) {
        if (checkRetention && period.compareTo(floor) < 0) {
            throw new ToolArguments.UsageException(what + " " + text(period) + " is under the maintenance floor of "
                    + text(floor) + " (" + FLOOR_KEY + "): younger attempt parts may belong to jobs still running; "
                    + "to use a shorter period on purpose, set -D" + CHECK_KEY + "=false");
        }
        return period;
    }

    static String text(Duration d) {
        long s = d.getSeconds();
        if (s != 0 && s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s != 0 && s % 3_600 == 0) {
            return s / 3_600 + "h";
        }
        if (s != 0 && s % 60 == 0) {
            return s / 60 + "m";
        }
        return s + "s";
    }
}
