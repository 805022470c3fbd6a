package io.stork.commit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Small files a write keeps in the dataset's internal directory ({@code _stork/}) once its commit succeeded
 * (a layout's model): given as write options, so they reach the job commit through the job's configuration,
 * and written only after the manifest, so a failed job leaves none and a new path still looks empty to
 * Spark's existence check before the job.
 */
public final class DatasetFiles {

    private static final Logger LOG = LoggerFactory.getLogger(DatasetFiles.class);
    /** Lower case: Spark lowers write option keys on their way to the job's configuration. */
    private static final String PREFIX = "stork.dataset.file.";

    private DatasetFiles() {
    }

    /** The write option that keeps {@code content} at {@code _stork/<relative>} after the commit. */
    public static String optionKey(String relative) {
        if (relative.contains("..") || relative.startsWith("/") || !relative.equals(relative.toLowerCase(
                java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("a dataset file is a lower-case path inside _stork/, not " + relative);
        }
        return PREFIX + relative;
    }

    static Map<String, String> of(Configuration jobConf) {
        return new TreeMap<>(jobConf.getPropsWithPrefix(PREFIX));
    }

    /** Writes them (one PUT each); a failure is a warning: the commit, which holds the data, went through. */
    static void writeAfterCommit(FileSystem fs, Path root, Map<String, String> files) {
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path location = new Path(new Path(root, "_stork"), e.getKey());
            try (OutputStream out = fs.create(location, true)) {
                out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException ex) {
                LOG.warn("Committed to {}, but could not write {} ({})", root, location, ex.toString());
            }
        }
    }
}
