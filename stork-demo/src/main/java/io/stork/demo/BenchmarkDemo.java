package io.stork.demo;

import io.stork.bench.spark.ConnectorBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A short version of the connector benchmark (docs/benchmarks.md): one write workload (Teragen) and one
 * read workload (Read-only), Stork over the S3 API against S3A with its magic committer, one run each on a
 * local-cluster whose executors are JVMs of their own; prints the benchmark's tables.
 */
public final class BenchmarkDemo {

    private BenchmarkDemo() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Files.createTempDirectory("stork-demo-bench");
        System.out.println("Connector benchmark, short version: Stork (S3 API) against S3A with the magic committer,");
        System.out.println("one write workload and one read workload, a Spark local-cluster with 2 executor JVMs.");
        System.out.println("(The full campaign, 7 scenarios and 9 workloads: bash scripts/bench-connectors.sh)");
        int exit = ConnectorBenchmark.execute(new String[] {"--out", out.toString(), "--name", "demo", "--runs", "1",
            "--scenarios", "stork-s3,s3a-magic", "--workloads", "read-small,teragen", "--object-kib", "4096",
            "--small-objects", "4", "--large-factor", "1", "--command", "the demo (bash scripts/demo.sh)"});
        List<String> report = Files.readAllLines(out.resolve("demo.md"));
        boolean print = false;
        for (String line : report) {
            if (line.startsWith("### Calls by type")) {
                break;
            }
            print |= line.startsWith("### REST calls");
            if (print) {
                System.out.println(line);
            }
        }
        if (exit != 0) {
            throw new IllegalStateException("the benchmark failed (exit " + exit + "); report: " + out.resolve("demo.md"));
        }
        System.out.println("Full report with charts and each scenario's settings: " + out.resolve("demo.md"));
    }
}
