package io.stork.spark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.InsertIntoHadoopFsRelationCommand;

/**
 * For a file write to {@code stork://}: counts the records of each part (by wrapping the write's file
 * format) and makes Stork's commit protocol the session's, unless the user chose one.
 */
final class StorkWriteRule extends Rule<LogicalPlan> {

    static final String COMMIT_PROTOCOL_KEY = "spark.sql.sources.commitProtocolClass";
    static final String STORK_PROTOCOL = "io.stork.commit.StorkCommitProtocol";

    private final SparkSession session;

    StorkWriteRule(SparkSession session) {
        this.session = session;
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        if (!(plan instanceof InsertIntoHadoopFsRelationCommand write)
                || !"stork".equals(write.outputPath().toUri().getScheme())
                || write.fileFormat() instanceof RecordCountingFileFormat) {
            return plan;
        }
        // The command reads its protocol class from the session when it runs, after this rule.
        if (!session.sessionState().conf().contains(COMMIT_PROTOCOL_KEY)) {
            session.sessionState().conf().setConfString(COMMIT_PROTOCOL_KEY, STORK_PROTOCOL);
        }
        return write.copy(write.outputPath(), write.staticPartitions(), write.ifPartitionNotExists(),
                write.partitionColumns(), write.bucketSpec(), new RecordCountingFileFormat(write.fileFormat()),
                write.options(), write.query(), write.mode(), write.catalogTable(), write.fileIndex(),
                write.outputColumnNames());
    }
}
