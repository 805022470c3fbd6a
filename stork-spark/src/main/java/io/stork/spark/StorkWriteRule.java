package io.stork.spark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.InsertIntoHadoopFsRelationCommand;

/**
 * For a file write to {@code stork://}: counts the records of each part (by wrapping the write's file
 * format) and routes the session's commits by output scheme ({@link CommitProtocolRouting}): Stork's
 * protocol for {@code stork://}, the session's previous one for any other scheme.
 */
final class StorkWriteRule extends Rule<LogicalPlan> {

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
        CommitProtocolRouting.route(session.sessionState().conf());
        return write.copy(write.outputPath(), write.staticPartitions(), write.ifPartitionNotExists(),
                write.partitionColumns(), write.bucketSpec(), new RecordCountingFileFormat(write.fileFormat()),
                write.options(), write.query(), write.mode(), write.catalogTable(), write.fileIndex(),
                write.outputColumnNames());
    }
}
