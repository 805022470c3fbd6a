package io.stork.spark.skipping;

import io.stork.layout.history.QueryHistory;
import io.stork.spark.layout.history.QueryHistoryRecorder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import scala.PartialFunction$;
import scala.runtime.AbstractFunction1;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Gives file-based relations over {@code stork://} a {@link SkippingFileIndex}. Injected as a pre-CBO
 * optimizer rule, which Spark runs after its own partition pruning of catalog tables, so the index it
 * wraps is already pruned; Spark's file scan then asks it for the files with the scan's data filters.
 * Off with {@code spark.stork.skipping.filter.enabled=false}; relations over other schemes too (judged by
 * the {@code index} command's output) with {@code spark.stork.skipping.otherSchemes=true}.
 */
public final class SkippingRule extends Rule<LogicalPlan> {

    public static final String ENABLED = "spark.stork.skipping.filter.enabled";
    /** Also other schemes (s3a://, hdfs://, file://), for datasets the {@code index} command indexed. */
    public static final String OTHER_SCHEMES = "spark.stork.skipping.otherSchemes";
    /** Locate files' ranges on executor hosts where the block cache is on (docs/block-cache.md#locality). */
    public static final String AFFINITY = "spark.stork.cache.affinity";
    /** How many executor hosts each range names (default 1). */
    public static final String AFFINITY_HOSTS = "spark.stork.cache.affinity.hosts";

    private final SparkSession session;
    /** The session's query history, made on the first scan it records. */
    private QueryHistoryRecorder history;

    public SkippingRule(SparkSession session) {
        this.session = session;
    }

    /** Where judged scans go when query history capture is on ({@value QueryHistoryRecorder#ENABLED}). */
    private ScanObserver historyObserver(HadoopFsRelation files, Configuration hadoopConf) {
        if (!Boolean.parseBoolean(session.sessionState().conf().getConfString(QueryHistoryRecorder.ENABLED, "true")
                .trim())) {
            return null;
        }
        synchronized (this) {
            if (history == null) {
                history = new QueryHistoryRecorder(session.sparkContext(), millis(QueryHistoryRecorder.FLUSH_INTERVAL,
                        "60s"), positive(QueryHistoryRecorder.CAPACITY, QueryHistory.DEFAULT_CAPACITY));
            }
        }
        return history.observer(files.dataSchema(), hadoopConf);
    }

    private long millis(String key, String fallback) {
        String value = session.sessionState().conf().getConfString(key, fallback).trim();
        try {
            long ms = org.apache.spark.network.util.JavaUtils.timeStringAsMs(value);
            if (ms > 0) {
                return ms;
            }
        } catch (RuntimeException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + " must be a positive duration such as 60s or 5m, not '" + value + "'");
    }

    private int positive(String key, int fallback) {
        String value = session.sessionState().conf().getConfString(key, Integer.toString(fallback)).trim();
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + " must be a whole number, at least 1, not '" + value + "'");
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        if (!Boolean.parseBoolean(session.sessionState().conf().getConfString(ENABLED, "true").trim())) {
            return plan;
        }
        return plan.transformUp(PartialFunction$.MODULE$.fromFunction(new AbstractFunction1<LogicalPlan, LogicalPlan>() {
            @Override
            public LogicalPlan apply(LogicalPlan node) {
                return rewrite(node);
            }
        }));
    }

    private LogicalPlan rewrite(LogicalPlan node) {
        if (!(node instanceof LogicalRelation relation) || !(relation.relation() instanceof HadoopFsRelation files)
                || files.location() instanceof SkippingFileIndex
                || !(overStork(files) || Boolean.parseBoolean(session.sessionState().conf()
                        .getConfString(OTHER_SCHEMES, "false").trim()))) {
            return node;
        }
        Configuration hadoopConf = session.sessionState().newHadoopConf();
        SkippingFileIndex index = new SkippingFileIndex(files.location(), hadoopConf, affinity(files, hadoopConf),
                historyObserver(files, hadoopConf));
        HadoopFsRelation skipping = files.copy(index, files.partitionSchema(), files.dataSchema(), files.bucketSpec(),
                files.fileFormat(), files.options(), files.sparkSession());
        return relation.copy(skipping, relation.output(), relation.catalogTable(), relation.isStreaming(),
                relation.stream());
    }

    /**
     * Soft affinity to executor hosts for relations over buckets whose file system has the block cache
     * on ({@code fs.stork.cache.enabled}), unless {@value #AFFINITY} is false.
     */
    private io.stork.spark.cache.CacheAffinity affinity(HadoopFsRelation files, Configuration hadoopConf) {
        if (!Boolean.parseBoolean(session.sessionState().conf().getConfString(AFFINITY, "true").trim())) {
            return null;
        }
        for (Path root : CollectionConverters.asJava(files.location().rootPaths())) {
            // Asked of the bucket's file system (Hadoop's cached instance) rather than read again from keys.
            try {
                if ("stork".equals(root.toUri().getScheme()) && root.getFileSystem(hadoopConf)
                        instanceof io.stork.hadoop.StorkFileSystem fs
                        && fs.store() instanceof io.stork.store.cache.CachingObjectStore) {
                    return new io.stork.spark.cache.CacheAffinity(new io.stork.spark.cache.ExecutorHosts(
                            session.sparkContext()), hostsPerRange());
                }
            } catch (java.io.IOException e) {
                return null; // the listing will say what is wrong with the bucket
            }
        }
        return null;
    }

    private int hostsPerRange() {
        String value = session.sessionState().conf().getConfString(AFFINITY_HOSTS,
                Integer.toString(io.stork.spark.cache.CacheAffinity.DEFAULT_HOSTS_PER_RANGE)).trim();
        try {
            int hosts = Integer.parseInt(value);
            if (hosts >= 1) {
                return hosts;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(AFFINITY_HOSTS + " must be a whole number of hosts, at least 1, not '"
                + value + "'");
    }

    private static boolean overStork(HadoopFsRelation files) {
        for (Path root : CollectionConverters.asJava(files.location().rootPaths())) {
            if ("stork".equals(root.toUri().getScheme())) {
                return true;
            }
        }
        return false;
    }
}
