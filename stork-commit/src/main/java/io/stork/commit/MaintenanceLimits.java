package io.stork.commit;

import java.time.Duration;
import io.stork.hadoop.settings.StorkSettings;
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

    static final String FLOOR_KEY = StorkSettings.PREFIX + StorkSettings.MAINTENANCE_FLOOR;
    static final String CHECK_KEY = StorkSettings.PREFIX + StorkSettings.RETENTION_CHECK;

    /** The limits for a bucket: its own keys ({@code fs.stork.bucket.<b>.maintenance.*}) over the global ones. */
    static MaintenanceLimits of(Configuration conf, String bucket) {
        StorkSettings settings = StorkSettings.of(conf, bucket);
        return new MaintenanceLimits(settings.maintenanceFloor(), settings.retentionCheck());
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
