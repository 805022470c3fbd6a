package io.stork.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The dataset tool's command line: strict, and refused before any store is touched. */
class ToolArgumentsTest {

    private static ToolArguments parse(String... args) {
        return ToolArguments.parse(args);
    }

    private static void refused(String message, String... args) {
        assertThatThrownBy(() -> parse(args)).isInstanceOf(ToolArguments.UsageException.class)
                .hasMessage(message);
    }

    @Test
    void acceptsEachCommandsOwnOptionsAndSettingsAnywhere() {
        ToolArguments vacuum = parse("-Dfs.stork.api=swift", "vacuum", "--retention", "36h", "--dry-run",
                "stork://b/t", "-Da.b=c d");
        assertThat(vacuum.command()).isEqualTo("vacuum");
        assertThat(vacuum.uri()).isEqualTo("stork://b/t");
        assertThat(vacuum.retention()).isEqualTo(Duration.ofHours(36));
        assertThat(vacuum.dryRun()).isTrue();
        assertThat(vacuum.settings()).containsEntry("fs.stork.api", "swift").containsEntry("a.b", "c d");
        assertThat(parse("clean", "stork://b/t", "--older-than", "2d").olderThan()).isEqualTo(Duration.ofDays(2));
        assertThat(parse("changes", "stork://b/t", "3", "5").operands()).containsExactly("3", "5");
        assertThat(parse("index", "stork://b/t", "csv", "header=true", "nullValue=-").operands())
                .containsExactly("csv", "header=true", "nullValue=-");
        ToolArguments relayout = parse("-Dfs.stork.api=swift", "relayout", "stork://b/t", "--kdtree", "lat,lon",
                "--buckets", "64");
        assertThat(relayout.uri()).isEqualTo("stork://b/t");
        assertThat(relayout.operands()).as("the relayout's own options, checked by it")
                .containsExactly("--kdtree", "lat,lon", "--buckets", "64");
        assertThat(relayout.settings()).containsEntry("fs.stork.api", "swift");
    }

    @Test
    void aRelayoutNamesItsDatasetFirst() {
        refused("unknown option '--kdtree'", "relayout", "--kdtree", "lat", "stork://b/t");
        refused("relayout needs (--kdtree <col,...> | --grid <lat,lon> [--precision 1]) (--buckets <n> | "
                + "--target-object-size <128m>) [--no-history] [--format <f>] [--option k=v ...]", "relayout",
                "stork://b/t");
    }

    @Test
    void refusesWhatItCannotTakeExactly() {
        refused("unknown option '--dryrun'", "vacuum", "--retention", "0s", "stork://b/t", "--dryrun");
        refused("vacuum takes no --older-than option", "vacuum", "--older-than", "1d", "stork://b/t");
        refused("restore takes no --dry-run option", "restore", "--dry-run", "stork://b/t", "2");
        refused("--retention 7: not a duration with a unit (90s, 60m, 24h, 7d)", "vacuum", "--retention", "7",
                "stork://b/t");
        refused("missing value for --retention (a duration such as 24h)", "vacuum", "stork://b/t", "--retention");
        refused("missing value for --older-than (a duration such as 24h)", "clean", "--older-than", "--dry-run",
                "stork://b/t");
        refused("'two' is not a generation number", "restore", "stork://b/t", "two");
        refused("'-1' is not a generation number", "restore", "stork://b/t", "-1");
        refused("restore needs <generation>", "restore", "stork://b/t");
        refused("unexpected argument 'extra' for vacuum", "vacuum", "stork://b/t", "extra");
        refused("missing <dataset uri> for inspect", "inspect");
        refused("'b/t' is not a dataset URI (e.g. stork://bucket/path)", "inspect", "b/t");
        refused("unknown command 'vaccum'", "vaccum", "stork://b/t");
        refused("missing command");
        refused("a setting is -Dkey=value, not '-Dfs.stork.api'", "-Dfs.stork.api", "inspect", "stork://b/t");
        // A secret given without its -D is named, never shown.
        refused("unexpected argument 'fs.stork.access.secret=<hidden>' for vacuum", "vacuum", "stork://b/t",
                "fs.stork.access.secret=s3cr3t");
        refused("unknown option '--swift.password=<hidden>'", "inspect", "--swift.password=s3cr3t", "stork://b/t");
    }

    @Test
    void theUsageShowsDryRunForEveryDeletingCommandAndUnits() {
        String usage = ToolArguments.usage();
        assertThat(usage).contains("stork-dataset clean [--dry-run] [--older-than 24h]")
                .contains("stork-dataset vacuum [--dry-run] [--retention 7d]")
                .contains("durations take a unit");
    }

    @Test
    void periodsUnderTheFloorAreRefusedNamingTheSettingThatAllowsThem() {
        Configuration conf = new Configuration(false);
        MaintenanceLimits limits = MaintenanceLimits.of(conf, "b");
        assertThat(limits.floor()).isEqualTo(Duration.ofHours(24));
        assertThat(limits.check(Duration.ofDays(7), "--retention")).isEqualTo(Duration.ofDays(7));
        assertThatThrownBy(() -> limits.check(Duration.ofMinutes(0), "--retention"))
                .hasMessage("--retention 0s is under the maintenance floor of 1d (fs.stork.maintenance.floor): "
                        + "younger attempt parts may belong to jobs still running; to use a shorter period on "
                        + "purpose, set -Dfs.stork.maintenance.retention.check=false");

        conf.set("fs.stork.bucket.b.maintenance.floor", "2h");
        assertThat(MaintenanceLimits.of(conf, "b").check(Duration.ofHours(2), "--older-than")).isEqualTo(Duration.ofHours(2));
        assertThat(MaintenanceLimits.of(conf, "other").floor()).isEqualTo(Duration.ofHours(24));
        conf.set("fs.stork.maintenance.retention.check", "false");
        assertThat(MaintenanceLimits.of(conf, "other").check(Duration.ZERO, "--retention")).isEqualTo(Duration.ZERO);
        conf.set("fs.stork.maintenance.retention.check", "no");
        assertThatThrownBy(() -> MaintenanceLimits.of(conf, "other"))
                .hasMessage("fs.stork.maintenance.retention.check: 'no' is not true or false");
        conf.set("fs.stork.maintenance.floor", "12");
        conf.set("fs.stork.maintenance.retention.check", "true");
        assertThatThrownBy(() -> MaintenanceLimits.of(conf, "other"))
                .hasMessage("fs.stork.maintenance.floor: '12' is not a duration with a unit (100ms, 10s, 5m, 24h, 7d)");
    }
}
