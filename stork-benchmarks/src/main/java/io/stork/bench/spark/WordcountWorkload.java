package io.stork.bench.spark;

import org.apache.spark.sql.Row;

/** Wordcount (read-heavy, small output): word frequencies of the small text dataset, written as text. */
final class WordcountWorkload implements Workload {

    @Override
    public String id() {
        return "wordcount";
    }

    @Override
    public String label() {
        return "Wordcount";
    }

    @Override
    public String run(WorkloadContext context) {
        context.spark().read().text(context.input(InputDatasets.SMALL))
                .selectExpr("explode(split(value, ' ')) AS word")
                .groupBy("word").count()
                .selectExpr("concat_ws('\t', word, cast(count AS STRING)) AS value")
                .write().text(context.output("wordcount"));
        return "";
    }

    @Override
    public String verify(WorkloadContext context) {
        Row row = context.spark().read().text(context.output("wordcount"))
                .selectExpr("count(*)", "sum(cast(split(value, '\t')[1] AS BIGINT))").first();
        return "words=" + row.getLong(0) + " occurrences=" + row.getLong(1);
    }
}
