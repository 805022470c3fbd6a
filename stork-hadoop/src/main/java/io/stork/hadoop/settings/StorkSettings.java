package io.stork.hadoop.settings;

import io.stork.manifest.commit.CommitSettings;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The one reader of Stork's bucket-, session- and dataset-scoped settings, used by the file system, the
 * committers and the dataset tool alike, so that each key is parsed in one place with one default. A value
 * is taken, first found, from (docs/configuration.md#precedence):
 * <ol>
 *   <li>the write's own option, which the commit records as a dataset property (so it is the dataset
 *       property from that generation on);</li>
 *   <li>the dataset's property, kept in its manifest ({@link #withDataset}), for the keys a dataset may
 *       carry ({@link DatasetPropertyKeys});</li>
 *   <li>the bucket's key, {@code fs.stork.bucket.<bucket>.<name>};</li>
 *   <li>the session's (or core-site's) key, {@code fs.stork.<name>};</li>
 *   <li>the default.</li>
 * </ol>
 * Immutable: {@link #withDataset} returns a new reader. A value that cannot be read fails with one line
 * naming the key it came from ({@link SettingValues}).
 */
public final class StorkSettings {

    public static final String PREFIX = "fs.stork.";

    public static final String RETENTION = "retention";
    public static final String CLAIM_TIMEOUT = "commit.claim.timeout";
    public static final String INLINE_PARTS = "manifest.inline.parts";
    public static final String MAINTENANCE_FLOOR = "maintenance.floor";
    public static final String RETENTION_CHECK = "maintenance.retention.check";
    public static final String PROGRESS_INTERVAL = "tool.progress.interval";

    public static final Duration DEFAULT_MAINTENANCE_FLOOR = Duration.ofHours(24);
    public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(10);

    private final Configuration conf;
    private final String bucket;
    private final Map<String, String> dataset;

    private StorkSettings(Configuration conf, String bucket, Map<String, String> dataset) {
        this.conf = conf;
        this.bucket = bucket;
        this.dataset = dataset;
    }

    /** The settings of {@code bucket} (null: the global keys only); a null configuration gives the defaults. */
    public static StorkSettings of(Configuration conf, String bucket) {
        return new StorkSettings(conf, bucket, Map.of());
    }

    /** These settings under a dataset's properties (its manifest's), which win over bucket and session keys. */
    public StorkSettings withDataset(Map<String, String> properties) {
        return new StorkSettings(conf, bucket, properties == null ? Map.of() : Map.copyOf(properties));
    }

    public String bucket() {
        return bucket;
    }

    /** The key {@code name} is read from: the bucket's when it is set, else the global one. */
    public String key(String name) {
        if (bucket != null && conf != null) {
            String own = PREFIX + "bucket." + bucket + "." + name;
            if (conf.get(own) != null) {
                return own;
            }
        }
        return PREFIX + name;
    }

    /** The configured text of {@code name} (bucket's, else global), trimmed; null when unset or empty. */
    public String text(String name) {
        if (conf == null) {
            return null;
        }
        String value = conf.getTrimmed(key(name));
        return value == null || value.isEmpty() ? null : value;
    }

    public Duration duration(String name, Duration defaultValue) {
        String text = text(name);
        return text == null ? defaultValue : SettingValues.duration(key(name), text);
    }

    public int integer(String name, int defaultValue, int min) {
        String text = text(name);
        return text == null ? defaultValue : SettingValues.integer(key(name), text, min);
    }

    public long bytes(String name, long defaultValue) {
        String text = text(name);
        return text == null ? defaultValue : SettingValues.bytes(key(name), text);
    }

    public boolean bool(String name, boolean defaultValue) {
        String text = text(name);
        return text == null ? defaultValue : SettingValues.bool(key(name), text);
    }

    /**
     * How long parts a generation dropped stay readable: the dataset's {@value DatasetPropertyKeys#RETENTION}
     * property, else {@code fs.stork.[bucket.<b>.]retention}, else 7 days.
     */
    public Duration retention() {
        Duration configured = duration(RETENTION, CommitSettings.DEFAULT_RETENTION);
        return DatasetPropertyKeys.retention(dataset, configured);
    }

    /** Where {@link #retention()} came from, for messages: the dataset property or the key. */
    public String retentionSource() {
        return dataset.containsKey(DatasetPropertyKeys.RETENTION)
                ? "dataset property " + DatasetPropertyKeys.RETENTION : key(RETENTION);
    }

    public Duration claimTimeout() {
        return duration(CLAIM_TIMEOUT, CommitSettings.DEFAULT_CLAIM_TIMEOUT);
    }

    public int inlineParts() {
        return integer(INLINE_PARTS, CommitSettings.DEFAULT_INLINE_PARTS, 1);
    }

    /** The shortest period maintenance may use (attempt parts younger than it may belong to running jobs). */
    public Duration maintenanceFloor() {
        return duration(MAINTENANCE_FLOOR, DEFAULT_MAINTENANCE_FLOOR);
    }

    /** False: maintenance may use periods under the floor, on purpose. */
    public boolean retentionCheck() {
        return bool(RETENTION_CHECK, true);
    }

    public Duration progressInterval() {
        return duration(PROGRESS_INTERVAL, DEFAULT_PROGRESS_INTERVAL);
    }

    /**
     * The commit point's settings: retention (this reader's, the dataset's when {@link #withDataset} gave
     * it), claim timeout and inline parts. A commit then applies the committed dataset's own retention
     * property over it ({@link DatasetPropertyKeys#commitRule()}).
     */
    public CommitSettings commitSettings() {
        return CommitSettings.defaults().withRetention(retention()).withClaimTimeout(claimTimeout())
                .withInlineParts(inlineParts());
    }
}
