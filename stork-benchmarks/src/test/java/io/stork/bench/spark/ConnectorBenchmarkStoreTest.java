package io.stork.bench.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark itself, at its smallest, against the real store: Stork and S3A with the classic committer
 * write one object and read a dataset in child JVMs with executors of their own. What it counts must be
 * what the commit protocols are known to do: Stork's one-object job is 3 calls and copies nothing; S3A's
 * renames (COPY + DELETE) and the bytes they copy show up in the store's log.
 */
class ConnectorBenchmarkStoreTest {

    @TempDir
    static Path out;
    private static int exit;
    private static Map<String, Measurement> measurements;

    @BeforeAll
    static void runBenchmark() throws Exception {
        exit = ConnectorBenchmark.execute(new String[] {"--out", out.toString(), "--name", "smoke", "--runs", "1",
            "--scenarios", "stork-s3,s3a-v1", "--workloads", "read-small,one-object", "--object-kib", "256",
            "--small-objects", "2", "--large-factor", "1", "--input-bucket", "stork-bench-test-input",
            "--output-bucket", "stork-bench-test-output"});
        List<Measurement> all = new ObjectMapper().readValue(out.resolve("smoke/results.json").toFile(),
                new TypeReference<List<Measurement>>() {
                });
        measurements = all.stream().collect(Collectors.toMap(m -> m.scenario() + "/" + m.workload(),
                Function.identity()));
    }

    @Test
    void everyScenarioComputedTheSameResults() throws Exception {
        assertThat(exit).isZero();
        assertThat(measurements.get("stork-s3/read-small").result())
                .isEqualTo(measurements.get("s3a-v1/read-small").result()).matches("lines=\\d+");
        assertThat(Files.readString(out.resolve("smoke.md"))).contains("identical in every run").doesNotContain(
                "MISMATCH");
    }

    @Test
    void storkWritesOneObjectInThreeCallsAndCopiesNothing() {
        Measurement stork = measurements.get("stork-s3/one-object");
        assertThat(stork.calls()).isEqualTo(Map.of("LIST", 1L, "PUT", 2L));
        assertThat(stork.bytesCopied()).isZero();
        assertThat(stork.verified()).isEqualTo("rows=[[0]]");
    }

    @Test
    void classicCommitterRenamesShowAsCopiesAndCopiedBytes() {
        Measurement s3a = measurements.get("s3a-v1/one-object");
        assertThat(s3a.calls()).containsKeys("COPY", "DELETE", "HEAD", "LIST");
        // The part ("0\n") is copied twice (task commit, job commit).
        assertThat(s3a.bytesCopied()).isEqualTo(2L * s3a.calls().get("COPY"));
        assertThat(s3a.totalCalls()).isGreaterThan(10 * stork().totalCalls());
    }

    @Test
    void chartsAndCostAreWritten() throws Exception {
        assertThat(out.resolve("smoke/chart-calls.png")).isNotEmptyFile();
        assertThat(Files.readString(out.resolve("smoke.md"))).contains("Cost per run").contains("(×");
    }

    private static Measurement stork() {
        return measurements.get("stork-s3/one-object");
    }
}
