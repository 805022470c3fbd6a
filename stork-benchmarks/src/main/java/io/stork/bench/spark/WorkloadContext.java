package io.stork.bench.spark;

import org.apache.spark.sql.SparkSession;

/** What a workload runs with: the session, the scenario's way of naming datasets, and the sizes. */
public record WorkloadContext(SparkSession spark, Scenario scenario, String inputBucket, String outputBucket,
                              String outputPrefix, BenchmarkSizes sizes) {

    /** One of the shared input datasets, as this scenario's connector names it. */
    public String input(String name) {
        return scenario.uri(inputBucket, name);
    }

    /** A text output of this run. */
    public String output(String name) {
        return scenario.uri(outputBucket, outputPrefix + "/" + name);
    }

    /** A Parquet output of this run. */
    public String columnarOutput(String name) {
        return scenario.columnarUri(outputBucket, outputPrefix + "/" + name);
    }
}
