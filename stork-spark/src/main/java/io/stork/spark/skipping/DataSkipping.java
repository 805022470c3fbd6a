package io.stork.spark.skipping;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The public API of data skipping on the read side: what it did for a query.
 * <pre>{@code
 * Dataset<Row> q = spark.read().parquet("stork://b/events").where("id = 42");
 * q.collect();
 * DataSkipping.reports(q)  // [1 of 40 objects read (...), ...]
 * }</pre>
 * From Python: {@code stork.skipping.reports(df)} (the package in the runtime jar).
 * Statistics for data Stork did not write: {@link #index}.
 */
public final class DataSkipping {

    private DataSkipping() {
    }

    /**
     * Computes statistics for the objects under {@code path} (any Hadoop path), read as {@code format} with
     * {@code options}, and records them beside them ({@link IndexCommand}). From Python:
     * {@code stork.skipping.index(spark, path, "csv", header=True, inferSchema=True)}.
     */
    public static IndexCommand.Result index(org.apache.spark.sql.SparkSession spark, String path, String format,
                                            java.util.Map<String, String> options) throws java.io.IOException {
        return IndexCommand.index(spark, path, format, options);
    }

    /**
     * One report per file scan of the query that has run (or been planned), in plan order: for each scan,
     * the newest listing of its data, whichever action on the DataFrame ran it ({@code q.count()} plans a
     * query of its own).
     */
    public static List<ScanReport> reports(Dataset<?> query) {
        List<ScanReport> reports = new ArrayList<>();
        collect(query.queryExecution().optimizedPlan(), reports);
        return reports;
    }

    /**
     * What skipping did for the session's last query it judged (every scan it listed, in order): after
     * {@code spark.sql("SELECT ...").show()} or {@code df.count()}, whatever DataFrame ran it. Empty before any.
     */
    public static List<ScanReport> lastQuery(org.apache.spark.sql.SparkSession spark) {
        return LatestScans.lastQuery(spark);
    }

    private static void collect(LogicalPlan plan, List<ScanReport> reports) {
        if (plan instanceof LogicalRelation relation && relation.relation() instanceof HadoopFsRelation files
                && files.location() instanceof SkippingFileIndex index) {
            LatestScans.newest(index.delegate()).or(index::lastScan).ifPresent(reports::add);
        }
        for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
            collect(child, reports);
        }
    }
}
