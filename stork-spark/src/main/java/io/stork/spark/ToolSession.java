package io.stork.spark;

import java.io.IOException;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session a dataset-tool command that needs Spark runs in ({@code index}, {@code relayout}): the
 * application's own under {@code spark-submit}, else a local one started here and stopped afterwards. The
 * tool's {@code -D} settings become the session's Hadoop settings.
 */
public final class ToolSession {

    /** The command's work in a session. */
    @FunctionalInterface
    public interface Work<T> {
        T run(SparkSession spark) throws IOException;
    }

    private ToolSession() {
    }

    public static <T> T run(String appName, Map<String, String> hadoopSettings, Work<T> work) throws IOException {
        boolean ours = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
        SparkSession.Builder builder = SparkSession.builder().appName(appName);
        if (ours && System.getProperty("spark.master") == null) {
            builder.master("local[*]"); // the dataset tool run with java: a local job
        }
        if (ours && System.getProperty("spark.sql.extensions") == null) {
            builder.config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions"); // a session of its own
        }
        hadoopSettings.forEach((k, v) -> builder.config("spark.hadoop." + k, v));
        SparkSession spark = builder.getOrCreate();
        try {
            hadoopSettings.forEach((k, v) -> spark.sparkContext().hadoopConfiguration().set(k, v));
            return work.run(spark);
        } finally {
            if (ours) {
                spark.stop();
            }
        }
    }
}
