package io.stork.bench.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * One scenario's run of the workloads, in a JVM of its own (started by {@link ConnectorBenchmark}), so
 * that no connector inherits another's caches, threads or warmed-up code. Spark runs as a driver with
 * executors in separate JVMs ({@code local-cluster}), as in production. Each workload's REST calls are
 * counted at the store's access log between two marker requests; the measurements go to a JSON file.
 */
public final class ScenarioRun {

    private ScenarioRun() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> defaults = new LinkedHashMap<>(RunOptions.sizeDefaults());
        defaults.put("scenario", "");
        defaults.put("run", "1");
        defaults.put("workloads", "");
        defaults.put("input-bucket", "");
        defaults.put("output-bucket", "");
        defaults.put("through", "");
        defaults.put("executors", "2");
        defaults.put("result", "");
        RunOptions options = new RunOptions(args, defaults);
        LocalStore local = LocalStore.shared();
        StoreEndpoint endpoint = StoreEndpoint.of(local);
        if (!options.get("through").isEmpty()) {
            endpoint = endpoint.through(options.get("through"));
        }
        Scenario scenario = Scenarios.byId(endpoint, options.get("scenario"));
        int run = options.integer("run");
        List<Workload> workloads = Workloads.select(options.list("workloads"));
        BenchmarkSizes sizes = options.sizes();

        SparkSession spark = session(scenario, options.integer("executors"), sizes);
        List<Measurement> measurements = new ArrayList<>();
        try {
            // Executors' JVMs start and warm up on a job that touches no store: connector start-up costs
            // (clients, thread pools, first connections) stay in the first workload, as a user would pay them.
            spark.range(0, 100_000, 1, 4).selectExpr("sum(id)").collect();
            WorkloadContext context = new WorkloadContext(spark, scenario, options.get("input-bucket"),
                    options.get("output-bucket"), scenario.id() + "/run-" + run, sizes);
            AccessLog log = local.accessLog();
            for (Workload workload : workloads) {
                AccessLog.Window window = log.openWindow();
                long start = System.nanoTime();
                String result = workload.run(context);
                long wallMillis = (System.nanoTime() - start) / 1_000_000;
                StoreCallCounts counts = window.counts();
                String verified = workload.verify(context);
                Map<String, Long> calls = new LinkedHashMap<>();
                counts.byType().forEach((type, n) -> calls.put(type.name(), n));
                measurements.add(new Measurement(scenario.id(), run, workload.id(), wallMillis, calls,
                        counts.bytesReceived(), counts.bytesSent(), counts.bytesCopied(), result, verified));
                System.out.printf("    %-12s %6.1f s  %5d calls  %s%n", workload.id(), wallMillis / 1000.0,
                        measurements.get(measurements.size() - 1).totalCalls(), (result + " " + verified).trim());
            }
        } finally {
            spark.stop();
        }
        Path result = Paths.get(options.get("result"));
        Files.createDirectories(result.toAbsolutePath().getParent());
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(result.toFile(), measurements);
    }

    private static SparkSession session(Scenario scenario, int executors, BenchmarkSizes sizes) {
        String sparkHome = System.getenv("SPARK_HOME");
        if (sparkHome == null || !new File(sparkHome, "jars").isDirectory()) {
            throw new IllegalStateException("SPARK_HOME must name a Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION()
                    + " distribution (scripts/spark-home.sh installs one) for the executors' JVMs");
        }
        SparkSession.Builder builder = SparkSession.builder()
                .master("local-cluster[" + executors + ",1,1024]")
                .appName("stork-bench-" + scenario.id())
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.executor.memory", "1g")
                .config("spark.executor.extraClassPath", executorClassPath(sparkHome))
                .config("spark.executor.extraJavaOptions", "-Djava.awt.headless=true")
                // Shuffle outputs (Terasort, Wordcount) in objects of about the inputs' size.
                .config("spark.sql.shuffle.partitions", Integer.toString(sizes.smallObjects()));
        scenario.sparkConf().forEach(builder::config);
        return builder.getOrCreate();
    }

    /**
     * This JVM's class path without the jars the Spark distribution already gives every executor (same
     * names: the distribution's version is the build's). spark-hadoop-cloud stays: executors deserialize
     * its commit protocol.
     */
    private static String executorClassPath(String sparkHome) {
        Set<String> sparkJars = new HashSet<>();
        File[] jars = new File(sparkHome, "jars").listFiles();
        if (jars != null) {
            for (File jar : jars) {
                sparkJars.add(jar.getName());
            }
        }
        return java.util.Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !sparkJars.contains(new File(entry).getName()))
                .collect(Collectors.joining(File.pathSeparator));
    }
}
