package io.stork.bench.spark;

import java.util.List;
import org.apache.spark.sql.Row;

/** The commit issue's job: one task writes one object (Stocator paper, table 2). */
final class OneObjectWorkload implements Workload {

    @Override
    public String id() {
        return "one-object";
    }

    @Override
    public String label() {
        return "One task, one object";
    }

    @Override
    public String run(WorkloadContext context) {
        context.spark().range(1).selectExpr("CAST(id AS STRING) AS value").coalesce(1).write()
                .text(context.output("one-object"));
        return "";
    }

    @Override
    public String verify(WorkloadContext context) {
        List<Row> rows = context.spark().read().text(context.output("one-object")).collectAsList();
        return "rows=" + rows;
    }
}
