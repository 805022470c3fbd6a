package io.stork.spark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import io.stork.spark.layout.LayoutWriteOption;
import org.apache.spark.sql.execution.datasources.InsertIntoHadoopFsRelationCommand;
import scala.jdk.javaapi.CollectionConverters;

/**
 * For a file write to {@code stork://}: counts the records of each part (by wrapping the write's file
 * format) and routes the session's commits by output scheme ({@link CommitProtocolRouting}): Stork's
 * protocol for {@code stork://}, the session's previous one for any other scheme; and lays the rows out
 * when the write asks for a layout ({@link LayoutWriteOption}: {@code .option("stork.layout", "kdtree")}).
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
        scala.collection.immutable.Map<String, String> options = write.options();
        LogicalPlan query = write.query();
        java.util.Optional<LayoutWriteOption.Rewritten> laidOut = LayoutWriteOption.apply(session, write.outputPath(),
                query, CollectionConverters.asJava(options));
        if (laidOut.isPresent()) {
            query = laidOut.get().query();
            options = scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(laidOut.get().options()));
        }
        return write.copy(write.outputPath(), write.staticPartitions(), write.ifPartitionNotExists(),
                write.partitionColumns(), write.bucketSpec(), new RecordCountingFileFormat(write.fileFormat(),
                        io.stork.spark.schema.WrittenSchema.partitionSchema(write.partitionColumns())),
                options, query, write.mode(), write.catalogTable(), write.fileIndex(),
                write.outputColumnNames());
    }
}
