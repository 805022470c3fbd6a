package io.stork.spark.skipping;

import java.util.Locale;
import java.util.Optional;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.physical.Partitioning;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SQLExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.execution.metric.SQLMetrics;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Map;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A pass-through node directly over a file scan whose index skips objects: it carries data skipping's
 * SQL metrics (objects and bytes the listing offered, and those skipped) and the block cache's (bytes its
 * tasks read from the executors' caches, and bytes the caches fetched from the store), shown in the Spark UI, and
 * names what was skipped in {@code EXPLAIN} once the scan has listed. It adds no work to the scan: rows
 * and batches are the scan's own. Spark's own scan metrics ("number of files read", "size of files read")
 * stay on the scan node and count what is left after skipping.
 */
public final class SkippingScanExec extends SparkPlan {

    private final FileSourceScanExec scan;
    private transient Map<String, SQLMetric> metrics;

    public SkippingScanExec(FileSourceScanExec scan) {
        this.scan = scan;
    }

    public FileSourceScanExec scan() {
        return scan;
    }

    /** What skipping did for this scan, once the scan has listed its files. */
    public Optional<ScanReport> report() {
        return scan.relation().location() instanceof SkippingFileIndex index
                ? index.reportFor(scan.dataFilters()) : Optional.empty();
    }

    @Override
    public Map<String, SQLMetric> metrics() {
        if (metrics == null) {
            java.util.Map<String, SQLMetric> m = new java.util.LinkedHashMap<>();
            m.put("objectsConsidered", SQLMetrics.createMetric(sparkContext(), "objects considered by skipping"));
            m.put("objectsSkipped", SQLMetrics.createMetric(sparkContext(), "objects skipped by statistics"));
            m.put("objectsWithStatistics", SQLMetrics.createMetric(sparkContext(), "objects with statistics"));
            m.put("bytesConsidered", SQLMetrics.createSizeMetric(sparkContext(), "bytes considered by skipping", -1L));
            m.put("bytesSkipped", SQLMetrics.createSizeMetric(sparkContext(), "bytes skipped by statistics", -1L));
            m.put("skippingTime", SQLMetrics.createTimingMetric(sparkContext(), "skipping time", -1L));
            m.put("cacheBytesServed", SQLMetrics.createSizeMetric(sparkContext(), "bytes read from block cache", -1L));
            m.put("cacheBytesFetched", SQLMetrics.createSizeMetric(sparkContext(), "bytes block cache fetched", -1L));
            metrics = scala.collection.immutable.Map.from(CollectionConverters.asScala(m));
        }
        return metrics;
    }

    private void publish() {
        Optional<ScanReport> report = report();
        if (report.isEmpty()) {
            return;
        }
        ScanReport r = report.get();
        set("objectsConsidered", r.objectsListed());
        set("objectsSkipped", r.objectsSkipped());
        set("objectsWithStatistics", r.withStatistics());
        set("bytesConsidered", r.bytesListed());
        set("bytesSkipped", r.bytesListed() - r.bytesRead());
        set("skippingTime", r.planningNanos() / 1_000_000);
        String executionId = sparkContext().getLocalProperty(SQLExecution.EXECUTION_ID_KEY());
        SQLMetrics.postDriverMetricUpdates(sparkContext(), executionId, metrics().values().toSeq());
    }

    /** The block cache's bytes per task, as the query's metrics (zero where the cache is off). */
    private <T> io.stork.spark.cache.TaskCacheBytes<T> cacheBytes() {
        return new io.stork.spark.cache.TaskCacheBytes<>(metrics().apply("cacheBytesServed"),
                metrics().apply("cacheBytesFetched"));
    }

    private void set(String name, long value) {
        metrics().apply(name).set(value);
    }

    @Override
    public RDD<InternalRow> doExecute() {
        RDD<InternalRow> rows = scan.execute(); // lists the files: the report exists from here on
        publish();
        return rows.mapPartitions(cacheBytes(), true, scala.reflect.ClassTag$.MODULE$.apply(InternalRow.class));
    }

    @Override
    public boolean supportsColumnar() {
        return scan.supportsColumnar();
    }

    @Override
    public RDD<ColumnarBatch> doExecuteColumnar() {
        RDD<ColumnarBatch> batches = scan.executeColumnar();
        publish();
        return batches.mapPartitions(cacheBytes(), true, scala.reflect.ClassTag$.MODULE$.apply(ColumnarBatch.class));
    }

    @Override
    public Seq<Attribute> output() {
        return scan.output();
    }

    @Override
    public Partitioning outputPartitioning() {
        return scan.outputPartitioning();
    }

    @Override
    public Seq<org.apache.spark.sql.catalyst.expressions.SortOrder> outputOrdering() {
        return scan.outputOrdering();
    }

    @Override
    public Seq<SparkPlan> children() {
        return CollectionConverters.asScala(java.util.List.<SparkPlan>of(scan)).toList();
    }

    @Override
    public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
        SparkPlan child = newChildren.apply(0);
        return child instanceof FileSourceScanExec fileScan ? new SkippingScanExec(fileScan) : child;
    }

    @Override
    public String simpleString(int maxFields) {
        return nodeName() + " " + summary();
    }

    @Override
    public String verboseStringWithOperatorId() {
        return formattedNodeName() + " " + summary() + "\n"
                + report().map(r -> "Filter: " + r.filter() + "\n").orElse("");
    }

    private String summary() {
        return report().map(r -> String.format(Locale.ROOT,
                "[%d of %d objects read, %d skipped by statistics (%d had statistics); %,d of %,d bytes]",
                r.objectsRead(), r.objectsListed(), r.objectsSkipped(), r.withStatistics(), r.bytesRead(),
                r.bytesListed())).orElse("[objects not listed yet]");
    }

    @Override
    public String nodeName() {
        return "StorkDataSkipping";
    }

    @Override
    public Object productElement(int n) {
        if (n != 0) {
            throw new IndexOutOfBoundsException(n);
        }
        return scan;
    }

    @Override
    public int productArity() {
        return 1;
    }

    @Override
    public boolean canEqual(Object that) {
        return that instanceof SkippingScanExec;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SkippingScanExec other && other.scan.equals(scan);
    }

    @Override
    public int hashCode() {
        return scan.hashCode() * 31 + 7;
    }
}
