package io.stork.hadoop.settings;

import io.stork.manifest.commit.DatasetSettingsRule;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The settings a dataset may keep as properties in its manifest (as Delta's table properties), and the
 * check a property must pass before it is set. Keys under {@code stork.} are Stork's: only those listed
 * here may be set (a mistyped {@code stork.retension} is refused rather than kept and ignored); keys
 * outside {@code stork.} are the user's own, kept as given.
 */
public final class DatasetPropertyKeys {

    /** How long parts a generation dropped stay readable: over {@code fs.stork.[bucket.<b>.]retention}. */
    public static final String RETENTION = "stork.retention";
    /** Data skipping's columns and indexes ({@code stork.skipping.columns}, ...; docs/data-skipping.md). */
    public static final String SKIPPING_PREFIX = "stork.skipping.";

    /** Stork's own bookkeeping in the properties (maintenance's fences): never set by hand. */
    private static final List<String> RESERVED = List.of("stork.fenced.attempts");

    private DatasetPropertyKeys() {
    }

    /** The dataset's retention property, else {@code configured}; a bad stored value fails naming the property. */
    public static Duration retention(Map<String, String> properties, Duration configured) {
        String text = properties == null ? null : properties.get(RETENTION);
        return text == null ? configured : SettingValues.duration("dataset property " + RETENTION, text);
    }

    /** The commit point's rule: a dataset's retention property over the writer's retention. */
    public static DatasetSettingsRule commitRule() {
        return (settings, properties) -> properties.containsKey(RETENTION)
                ? settings.withRetention(retention(properties, settings.retention())) : settings;
    }

    /**
     * The name a property is kept under: Stork's keys in lower case, as a write's options are recorded
     * (Spark's options are case-insensitive); a user's own as given.
     */
    public static String normalize(String key) {
        String trimmed = key == null ? null : key.trim();
        return trimmed != null && trimmed.toLowerCase(java.util.Locale.ROOT).startsWith("stork.")
                ? trimmed.toLowerCase(java.util.Locale.ROOT) : trimmed;
    }

    /** Checks that {@code key} may be removed: any but Stork's bookkeeping. */
    public static void checkRemovable(String key) {
        if (RESERVED.contains(key)) {
            throw new IllegalArgumentException("dataset property " + key + " is Stork's bookkeeping and cannot be unset");
        }
    }

    /**
     * Checks that {@code key} may be set to {@code value} on a dataset; fails with one line naming the key.
     */
    public static void check(String key, String value) {
        if (key == null || key.isBlank() || key.contains("=")) {
            throw new IllegalArgumentException("dataset property name '" + key + "' is empty or contains '='");
        }
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("dataset property " + key + ": a value is required (to remove it, "
                    + "unset it)");
        }
        if (RESERVED.contains(key)) {
            throw new IllegalArgumentException("dataset property " + key + " is Stork's bookkeeping and cannot be set");
        }
        if (key.equals(RETENTION)) {
            SettingValues.duration("dataset property " + key, value);
        } else if (key.startsWith("stork.") && !key.startsWith(SKIPPING_PREFIX)) {
            throw new IllegalArgumentException("dataset property " + key + " is not one Stork knows (its own are "
                    + RETENTION + " and " + SKIPPING_PREFIX + "*; names outside stork. are kept as given)");
        }
    }
}
