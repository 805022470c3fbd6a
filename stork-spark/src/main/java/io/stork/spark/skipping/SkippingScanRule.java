package io.stork.spark.skipping;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.ColumnarRule;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import scala.runtime.AbstractFunction1;

/**
 * Puts a {@link SkippingScanExec} over every file scan whose index skips objects, so that skipping's
 * counters are SQL metrics of the query. Runs before Spark inserts its row/columnar transitions (the node
 * supports what its scan supports); Spark may run it again on a plan it already ran on (adaptive
 * execution), so scans already under the node are left as they are.
 */
public final class SkippingScanRule extends ColumnarRule {

    public SkippingScanRule(SparkSession session) {
    }

    @Override
    public Rule<SparkPlan> preColumnarTransitions() {
        return new Rule<>() {
            @Override
            public SparkPlan apply(SparkPlan plan) {
                return wrap(plan);
            }
        };
    }

    static SparkPlan wrap(SparkPlan plan) {
        if (plan instanceof SkippingScanExec) {
            return plan;
        }
        if (plan instanceof FileSourceScanExec scan && scan.relation().location() instanceof SkippingFileIndex) {
            return new SkippingScanExec(scan);
        }
        return plan.mapChildren(new AbstractFunction1<>() {
            @Override
            public SparkPlan apply(SparkPlan child) {
                return wrap(child);
            }
        });
    }
}
