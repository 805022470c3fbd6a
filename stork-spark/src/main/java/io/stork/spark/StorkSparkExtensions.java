package io.stork.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * The one setting that enables Stork in a Spark session:
 * {@code spark.sql.extensions=io.stork.spark.StorkSparkExtensions}. It
 * <ul>
 *   <li>binds the {@code stork} scheme in the application's Hadoop configuration: the file system, and the
 *       committers for Hadoop's output-format APIs (RDD {@code saveAsNewAPIHadoopFile}, {@code saveAsTextFile},
 *       {@code saveAsHadoopFile}; for the old API a committer that is Hadoop's own for other schemes). With the jar
 *       passed by {@code --jars} or {@code --packages}, Hadoop's service loader has already run without it,
 *       so the scheme is named explicitly. Values the user set are kept.</li>
 *   <li>routes file writes by scheme ({@link SchemeRoutingCommitProtocol}): {@code stork://} output commits
 *       with Stork's protocol, other output with the protocol the session had;</li>
 *   <li>reports, per part, the record count the manifest carries;</li>
 *   <li>gathers data-skipping statistics while writing, and drops the objects they rule out from scans
 *       ({@link io.stork.spark.skipping.SkippingRule}), with their counters as SQL metrics of the scan
 *       ({@link io.stork.spark.skipping.SkippingScanExec});</li>
 *   <li>reads a dataset's files from its manifest rather than listing them when a DataFrame is made
 *       ({@link io.stork.spark.read.ManifestRelationRule});</li>
 *   <li>takes Delta Lake's time-travel options ({@code versionAsOf}, {@code timestampAsOf}) on reads;</li>
 *   <li>parses Stork's SQL: {@code DESCRIBE HISTORY}, {@code VACUUM}, {@code RESTORE}, {@code VERSION AS OF}
 *       and the metadata tables ({@link io.stork.spark.sql.StorkSqlParser}, docs/sql.md).</li>
 * </ul>
 */
public class StorkSparkExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {

    static final String FILE_SYSTEM_KEY = "fs.stork.impl";
    static final String FILE_SYSTEM_CLASS = "io.stork.hadoop.StorkFileSystem";
    static final String COMMITTER_FACTORY_KEY = "mapreduce.outputcommitter.factory.scheme.stork";
    static final String COMMITTER_FACTORY_CLASS = "io.stork.commit.StorkCommitterFactory";
    static final String MAPRED_COMMITTER_KEY = "mapred.output.committer.class";
    static final String MAPRED_COMMITTER_CLASS = "io.stork.commit.StorkMapredCommitter";

    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        // Spark applies extensions while building a session, after its context exists.
        bindScheme(SparkContext.getOrCreate().hadoopConfiguration());
        extensions.injectPostHocResolutionRule(StorkWriteRule::new);
        extensions.injectResolutionRule(StorkTimeTravelRule::new);
        // In the hint batch, the one that runs before Spark resolves a read by listing every file.
        extensions.injectHintResolutionRule(io.stork.spark.read.ManifestRelationRule::new);
        extensions.injectPreCBORule(io.stork.spark.skipping.SkippingRule::new);
        extensions.injectColumnar(io.stork.spark.skipping.SkippingScanRule::new);
        extensions.injectFunction(io.stork.spark.skipping.GeoBoxFunction.registration());
        extensions.injectParser(io.stork.spark.sql.StorkSqlParser::new);
        return BoxedUnit.UNIT;
    }

    static void bindScheme(Configuration conf) {
        if (conf.get(FILE_SYSTEM_KEY) == null) {
            conf.set(FILE_SYSTEM_KEY, FILE_SYSTEM_CLASS);
        }
        if (conf.get(COMMITTER_FACTORY_KEY) == null) {
            conf.set(COMMITTER_FACTORY_KEY, COMMITTER_FACTORY_CLASS);
        }
        // The old API's committer for every scheme: Stork's for stork://, Hadoop's FileOutputCommitter otherwise.
        if (conf.get(MAPRED_COMMITTER_KEY) == null) {
            conf.set(MAPRED_COMMITTER_KEY, MAPRED_COMMITTER_CLASS);
        }
    }
}
