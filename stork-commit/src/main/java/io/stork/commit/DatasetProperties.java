package io.stork.commit;

import io.stork.hadoop.settings.DatasetPropertyKeys;
import io.stork.manifest.Manifest;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.index.BloomIndexType;
import io.stork.skipping.index.ValueListIndexType;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Dataset properties: settings kept in the dataset's manifest (as Delta's table properties), which hold
 * for every reader, writer and maintainer of the dataset over their bucket and session keys
 * (docs/configuration.md#precedence). Which keys a dataset may carry, and their checks:
 * {@link DatasetPropertyKeys}.
 * <ul>
 *   <li>A write sets them from its options (data skipping's {@code stork.skipping.*},
 *       {@code stork.retention}), handed from the writer's preparation on the driver to the job commit
 *       through the job's configuration (Spark gives both the same Hadoop job): {@link #set(Configuration,
 *       String, String)}.</li>
 *   <li>An existing dataset's properties change without rewriting data: {@link #set(FileSystem, Path, Map)},
 *       {@link #unset(FileSystem, Path, Collection)} commit a new generation naming the same parts (the
 *       dataset tool's {@code set-property} and {@code unset-property}; the entry point for SQL's
 *       {@code ALTER TABLE ... SET TBLPROPERTIES}).</li>
 * </ul>
 */
public final class DatasetProperties {

    private static final String PREFIX = "stork.dataset.property.";

    private DatasetProperties() {
    }

    /** The write sets {@code key} to {@code value} on the dataset it commits. */
    public static void set(Configuration jobConf, String key, String value) {
        jobConf.set(PREFIX + key, value);
    }

    /**
     * Records the write's own dataset-wide options (those {@link DatasetPropertyKeys} names, other than data
     * skipping's, which {@code SkippingSettings} records as a set) as properties of the dataset it commits: a
     * write option wins over the dataset's property, and is the property from then on. A bad value fails the
     * write before any task runs, naming the option.
     */
    public static void recordWriteOptions(Configuration jobConf, Map<String, String> writeOptions) {
        writeOptions.forEach((k, v) -> {
            String key = DatasetPropertyKeys.normalize(k);
            if (key.equals(DatasetPropertyKeys.RETENTION)) {
                try {
                    DatasetPropertyKeys.check(key, v);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("write option " + e.getMessage().replace("dataset property ", ""));
                }
                set(jobConf, key, v);
            }
        });
    }

    /** The write removes {@code key} from the dataset it commits. */
    public static void remove(Configuration jobConf, String key) {
        jobConf.set(PREFIX + key, "");
    }

    /**
     * Sets {@code properties} on the dataset at {@code root}: one new generation naming the same parts
     * (a GET of the manifest and the commit's PUT). Each key and value is checked first; a bad one fails
     * with one line naming it, before anything is written. Returns the manifest committed.
     */
    public static Manifest set(FileSystem fs, Path root, Map<String, String> properties) throws IOException {
        if (properties.isEmpty()) {
            throw new IllegalArgumentException("no dataset property to set");
        }
        return new DatasetCommitter(fs, root, "set-property-" + UUID.randomUUID()).changeProperties(properties,
                List.of());
    }

    /** Removes the properties named {@code keys} from the dataset at {@code root}, as {@link #set(FileSystem, Path, Map)}. */
    public static Manifest unset(FileSystem fs, Path root, Collection<String> keys) throws IOException {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no dataset property to unset");
        }
        return new DatasetCommitter(fs, root, "unset-property-" + UUID.randomUUID()).changeProperties(Map.of(),
                keys);
    }

    /** Data skipping's option names, in lower case as a dataset keeps them (docs/data-skipping.md). */
    private static final java.util.Set<String> SKIPPING_KEYS = java.util.stream.Stream.of(SkippingSpec.ENABLED,
            SkippingSpec.COLUMNS, SkippingSpec.NUM_COLUMNS, SkippingSpec.INDEXES, SkippingSpec.STRING_PREFIX,
            SkippingSpec.GEO, SkippingSpec.GEO_BOXES, ValueListIndexType.MAX_KEY, BloomIndexType.ITEMS_KEY,
            BloomIndexType.FPP_KEY).map(k -> k.toLowerCase(java.util.Locale.ROOT))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** Fails, naming it, on a {@code stork.skipping.} name that is none of data skipping's options (a typo). */
    static void checkSkippingKey(String key) {
        if (key.startsWith(DatasetPropertyKeys.SKIPPING_PREFIX) && !SKIPPING_KEYS.contains(key)) {
            throw new IllegalArgumentException("dataset property " + key + " is not one of data skipping's options ("
                    + String.join(", ", new java.util.TreeSet<>(SKIPPING_KEYS)) + ")");
        }
    }

    /** The properties the job sets; an empty value removes the property. */
    static Map<String, String> of(Configuration jobConf) {
        Map<String, String> properties = new TreeMap<>();
        for (Map.Entry<String, String> e : jobConf.getPropsWithPrefix(PREFIX).entrySet()) {
            properties.put(e.getKey(), e.getValue());
        }
        return properties;
    }
}
