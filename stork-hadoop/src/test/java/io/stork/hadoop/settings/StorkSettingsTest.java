package io.stork.hadoop.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.commit.CommitSettings;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The one settings reader: each key's precedence (dataset property > bucket key > session key > default),
 * one layer at a time, and a bad value failing with one line naming the key it came from.
 */
class StorkSettingsTest {

    private static final String BUCKET = "b";

    /** Sets {@code name} layer by layer and checks which value wins at each step. */
    private static <T> void precedence(String name, Function<StorkSettings, T> read, T byDefault, String session,
                                       T sessionValue, String bucket, T bucketValue) {
        Configuration conf = new Configuration(false);
        assertThat(read.apply(StorkSettings.of(conf, BUCKET))).as(name + " default").isEqualTo(byDefault);
        conf.set("fs.stork." + name, session);
        assertThat(read.apply(StorkSettings.of(conf, BUCKET))).as(name + " session key").isEqualTo(sessionValue);
        conf.set("fs.stork.bucket." + BUCKET + "." + name, bucket);
        assertThat(read.apply(StorkSettings.of(conf, BUCKET))).as(name + " bucket key").isEqualTo(bucketValue);
        assertThat(read.apply(StorkSettings.of(conf, "other"))).as(name + " another bucket's key does not apply")
                .isEqualTo(sessionValue);
        assertThat(StorkSettings.of(conf, BUCKET).key(name)).isEqualTo("fs.stork.bucket.b." + name);
        assertThat(StorkSettings.of(conf, "other").key(name)).isEqualTo("fs.stork." + name);
    }

    @Test
    void retentionDatasetPropertyOverBucketOverSessionOverDefault() {
        precedence("retention", StorkSettings::retention, Duration.ofDays(7), "3d", Duration.ofDays(3), "2h",
                Duration.ofHours(2));
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.retention", "3d");
        conf.set("fs.stork.bucket.b.retention", "2h");
        StorkSettings own = StorkSettings.of(conf, BUCKET).withDataset(Map.of("stork.retention", "30d"));
        assertThat(own.retention()).isEqualTo(Duration.ofDays(30));
        assertThat(own.retentionSource()).isEqualTo("dataset property stork.retention");
        assertThat(own.commitSettings().retention()).isEqualTo(Duration.ofDays(30));
        assertThat(StorkSettings.of(conf, BUCKET).retentionSource()).isEqualTo("fs.stork.bucket.b.retention");
        // a dataset without the property: the bucket's key
        assertThat(StorkSettings.of(conf, BUCKET).withDataset(Map.of("stork.skipping.columns", "x")).retention())
                .isEqualTo(Duration.ofHours(2));
    }

    @Test
    void bucketOverSessionOverDefaultForEachCommitAndMaintenanceKey() {
        precedence("commit.claim.timeout", StorkSettings::claimTimeout, CommitSettings.DEFAULT_CLAIM_TIMEOUT, "90s",
                Duration.ofSeconds(90), "5m", Duration.ofMinutes(5));
        precedence("manifest.inline.parts", StorkSettings::inlineParts, 10_000, "500", 500, "20", 20);
        precedence("maintenance.floor", StorkSettings::maintenanceFloor, Duration.ofHours(24), "12h",
                Duration.ofHours(12), "1h", Duration.ofHours(1));
        precedence("maintenance.retention.check", StorkSettings::retentionCheck, true, "false", false, "TRUE", true);
        precedence("tool.progress.interval", StorkSettings::progressInterval, Duration.ofSeconds(10), "1s",
                Duration.ofSeconds(1), "250ms", Duration.ofMillis(250));
        precedence("block.size", s -> s.bytes("block.size", 128L << 20), 128L << 20, "64M", 64L << 20, "1k", 1024L);
    }

    @Test
    void theCommitSettingsAreReadFromTheSameKeys() {
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.retention", "1d");
        conf.set("fs.stork.bucket.b.commit.claim.timeout", "2m");
        conf.set("fs.stork.manifest.inline.parts", "7");
        CommitSettings settings = StorkSettings.of(conf, BUCKET).commitSettings();
        assertThat(settings.retention()).isEqualTo(Duration.ofDays(1));
        assertThat(settings.claimTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(settings.inlineParts()).isEqualTo(7);
        assertThat(StorkSettings.of(null, null).commitSettings().retention()).isEqualTo(CommitSettings.DEFAULT_RETENTION);
    }

    @Test
    void aBadValueFailsWithOneLineNamingTheKeyItCameFrom() {
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.bucket.b.retention", "7");
        assertThatThrownBy(() -> StorkSettings.of(conf, BUCKET).retention())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fs.stork.bucket.b.retention: '7' is not a duration with a unit (100ms, 10s, 5m, 24h, 7d)");
        conf.set("fs.stork.commit.claim.timeout", "a minute");
        assertThatThrownBy(() -> StorkSettings.of(conf, BUCKET).claimTimeout())
                .hasMessage("fs.stork.commit.claim.timeout: 'a minute' is not a duration with a unit (100ms, 10s, 5m, "
                        + "24h, 7d)");
        conf.set("fs.stork.manifest.inline.parts", "0");
        assertThatThrownBy(() -> StorkSettings.of(conf, BUCKET).inlineParts())
                .hasMessage("fs.stork.manifest.inline.parts: '0' is not a whole number of at least 1");
        conf.set("fs.stork.manifest.inline.parts", "many");
        assertThatThrownBy(() -> StorkSettings.of(conf, BUCKET).inlineParts())
                .hasMessage("fs.stork.manifest.inline.parts: 'many' is not a whole number");
        conf.set("fs.stork.maintenance.retention.check", "yes");
        assertThatThrownBy(() -> StorkSettings.of(conf, BUCKET).retentionCheck())
                .hasMessage("fs.stork.maintenance.retention.check: 'yes' is not true or false");
        conf.set("fs.stork.block.size", "big");
        assertThatThrownBy(() -> StorkSettings.of(conf, BUCKET).bytes("block.size", 1))
                .hasMessage("fs.stork.block.size: 'big' is not a size (bytes, or a number and a suffix: 16K, 32M, 10G)");
        assertThatThrownBy(() -> StorkSettings.of(new Configuration(false), BUCKET)
                .withDataset(Map.of("stork.retention", "soon")).retention())
                .hasMessage("dataset property stork.retention: 'soon' is not a duration with a unit (100ms, 10s, 5m, "
                        + "24h, 7d)");
    }

    @Test
    void durationsTakeHadoopsUnits() {
        assertThat(SettingValues.duration("k", "100ms")).isEqualTo(Duration.ofMillis(100));
        assertThat(SettingValues.duration("k", " 10S ")).isEqualTo(Duration.ofSeconds(10));
        assertThat(SettingValues.duration("k", "5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(SettingValues.duration("k", "24h")).isEqualTo(Duration.ofHours(24));
        assertThat(SettingValues.duration("k", "7d")).isEqualTo(Duration.ofDays(7));
        assertThat(SettingValues.duration("k", "5us")).isEqualTo(Duration.ofNanos(5000));
    }

    @Test
    void theCommitRuleAppliesTheDatasetsRetentionOnly() {
        CommitSettings writer = CommitSettings.defaults().withRetention(Duration.ofDays(7)).withInlineParts(3);
        CommitSettings own = DatasetPropertyKeys.commitRule().apply(writer, Map.of("stork.retention", "2h"));
        assertThat(own.retention()).isEqualTo(Duration.ofHours(2));
        assertThat(own.inlineParts()).isEqualTo(3);
        assertThat(DatasetPropertyKeys.commitRule().apply(writer, Map.of())).isSameAs(writer);
    }

    @Test
    void onlyKnownStorkPropertiesMayBeSet() {
        DatasetPropertyKeys.check("stork.retention", "30d");
        DatasetPropertyKeys.check("stork.skipping.columns", "ts,user");
        DatasetPropertyKeys.check("owner", "team-a"); // a user's own property, kept as given
        assertThatThrownBy(() -> DatasetPropertyKeys.check("stork.retension", "30d"))
                .hasMessageStartingWith("dataset property stork.retension is not one Stork knows");
        assertThatThrownBy(() -> DatasetPropertyKeys.check("stork.retention", "30"))
                .hasMessage("dataset property stork.retention: '30' is not a duration with a unit (100ms, 10s, 5m, "
                        + "24h, 7d)");
        assertThatThrownBy(() -> DatasetPropertyKeys.check("stork.fenced.attempts", "x"))
                .hasMessage("dataset property stork.fenced.attempts is Stork's bookkeeping and cannot be set");
        assertThatThrownBy(() -> DatasetPropertyKeys.check("owner", ""))
                .hasMessageStartingWith("dataset property owner: a value is required");
        assertThat(DatasetPropertyKeys.normalize(" Stork.Skipping.NumColumns")).isEqualTo("stork.skipping.numcolumns");
        assertThat(DatasetPropertyKeys.normalize("Owner")).isEqualTo("Owner");
    }
}
