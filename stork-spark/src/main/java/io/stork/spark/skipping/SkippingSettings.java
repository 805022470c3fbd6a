package io.stork.spark.skipping;

import io.stork.commit.DatasetProperties;
import io.stork.hadoop.DatasetParts;
import io.stork.hadoop.StorkFileSystem;
import io.stork.skipping.collect.SkippingSpec;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Data skipping's settings as a dataset property: a write's {@code stork.skipping.*} options are kept in
 * the manifest it commits, and later writes to the dataset (appends) use them unless they give their own.
 */
public final class SkippingSettings {

    private static final Logger LOG = LoggerFactory.getLogger(SkippingSettings.class);
    private static final String OUTPUT_DIR = "mapreduce.output.fileoutputformat.outputdir";

    private SkippingSettings() {
    }

    /**
     * The skipping settings the output dataset keeps in its manifest; none for a new dataset or another
     * scheme. The manifest is the one the write's output check (Spark's {@code exists} on the output, which
     * reads an existing dataset's manifest) has just cached: this costs no call. Should it not be cached,
     * the write gathers the session's defaults (a debug line says so).
     */
    public static Map<String, String> ofDataset(Configuration jobConf) {
        String output = jobConf.get(OUTPUT_DIR);
        if (output == null || !output.startsWith(StorkFileSystem.SCHEME + ":")) {
            return Map.of();
        }
        try {
            Path root = new Path(output);
            FileSystem fs = root.getFileSystem(jobConf);
            if (fs instanceof StorkFileSystem stork) {
                Map<String, String> settings = stork.datasets().cachedAt(root).map(DatasetParts::properties)
                        .orElse(Map.of());
                if (settings.isEmpty()) {
                    LOG.debug("Data skipping: no cached manifest with settings for {}", output);
                }
                return settings;
            }
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("Data skipping: could not read the settings of {} ({}); the write uses its own options and the "
                    + "session's", output, e.toString());
        }
        return Map.of();
    }

    /**
     * Records the write's own skipping options as the dataset's settings, replacing all of the dataset's
     * earlier ones ({@code datasetSettings}); a write without skipping options leaves them as they are.
     */
    public static void recordOnDataset(Configuration jobConf, scala.collection.Map<String, String> writeOptions,
                                       Map<String, String> datasetSettings) {
        Map<String, String> own = new java.util.TreeMap<>();
        CollectionConverters.asJava(writeOptions).forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(SkippingSpec.PREFIX)) {
                own.put(k.toLowerCase(Locale.ROOT), v);
            }
        });
        if (own.isEmpty()) {
            return;
        }
        datasetSettings.keySet().stream().filter(k -> k.startsWith(SkippingSpec.PREFIX) && !own.containsKey(k))
                .forEach(k -> DatasetProperties.remove(jobConf, k));
        own.forEach((k, v) -> DatasetProperties.set(jobConf, k, v));
    }
}
