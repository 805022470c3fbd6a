package io.stork.commit;

import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * Dataset properties a write sets (data skipping's {@code stork.skipping.*} settings given as write
 * options), handed from the writer's preparation on the driver to the job commit through the job's
 * configuration (Spark gives both the same Hadoop job), and kept in the manifest by the commit.
 */
public final class DatasetProperties {

    private static final String PREFIX = "stork.dataset.property.";

    private DatasetProperties() {
    }

    /** The write sets {@code key} to {@code value} on the dataset it commits. */
    public static void set(Configuration jobConf, String key, String value) {
        jobConf.set(PREFIX + key, value);
    }

    /** The write removes {@code key} from the dataset it commits. */
    public static void remove(Configuration jobConf, String key) {
        jobConf.set(PREFIX + key, "");
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
