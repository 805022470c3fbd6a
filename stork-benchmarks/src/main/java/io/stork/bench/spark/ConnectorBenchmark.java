package io.stork.bench.spark;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stork.store.ObjectStore;
import io.stork.store.StoreFactory;
import io.stork.store.s3.S3StoreConfig;
import io.stork.localstore.LocalStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Runs the workloads through every scenario, several times, interleaved (run 1 of every scenario, then run 2,
 * each run starting from another scenario, so that slow phases of a shared machine spread over all), each
 * scenario run in a JVM of its own ({@link ScenarioRun}); then checks that every scenario computed the same
 * results, and writes the report, the raw measurements and the charts.
 *
 * <p>With {@code --rates}, the store is reached over a shaped link (scripts/slow-link.sh) and the whole
 * campaign runs once per rate.
 */
public final class ConnectorBenchmark {

    private static final List<String> JVM_OPTIONS = List.of("-Xmx1536m", "-Djava.awt.headless=true",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false");

    private final RunOptions options;
    private final LocalStore local;
    private final Path repo;
    private final Path logs;
    /** The benchmark's own client (input upload, cleanup between runs): never inside a measured window. */
    private final ObjectStore store;

    private ConnectorBenchmark(RunOptions options) throws IOException {
        this.options = options;
        this.local = LocalStore.shared();
        this.repo = local.repositoryRoot();
        this.logs = Files.createDirectories(repo.resolve("stork-benchmarks/target/bench-logs"));
        this.store = StoreFactory.open(S3StoreConfig.of(local.s3Endpoint(), local.s3Region(), local.s3AccessKey(),
                local.s3SecretKey()), io.stork.store.RetryPolicy.DEFAULT);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the benchmark; returns 0, 1 if a scenario failed or results differ, 2 for bad options. */
    public static int execute(String[] args) {
        Map<String, String> defaults = new LinkedHashMap<>(RunOptions.sizeDefaults());
        defaults.put("runs", "3");
        defaults.put("scenarios", "all");
        defaults.put("workloads", "all");
        defaults.put("out", "docs/benchmarks");
        defaults.put("name", "connectors");
        defaults.put("prices", "");
        defaults.put("through", "");
        defaults.put("link", "loopback (no shaping)");
        defaults.put("rates", "");
        defaults.put("executors", "2");
        defaults.put("input-bucket", "stork-bench-input");
        defaults.put("output-bucket", "stork-bench-output");
        defaults.put("command", "");
        defaults.put("from-results", "");
        try {
            RunOptions options = new RunOptions(args, defaults);
            ConnectorBenchmark benchmark = new ConnectorBenchmark(options);
            try {
                return benchmark.run();
            } finally {
                benchmark.store.close();
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("stork-bench: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println("stork-bench: " + e);
            return 1;
        }
    }

    private int run() throws IOException {
        Instant started = Instant.now();
        StoreEndpoint endpoint = options.get("through").isEmpty() ? StoreEndpoint.of(local)
                : StoreEndpoint.of(local).through(options.get("through"));
        List<Scenario> scenarios = options.get("scenarios").equals("all") ? Scenarios.all(endpoint)
                : options.list("scenarios").stream().map(id -> Scenarios.byId(endpoint, id)).toList();
        List<String> workloadIds = options.get("workloads").equals("all")
                ? Workloads.all().stream().map(Workload::id).toList() : options.list("workloads");
        List<Workload> workloads = Workloads.select(workloadIds);
        BenchmarkSizes sizes = options.sizes();
        PriceTable prices = PriceTable.load(options.get("prices").isEmpty() ? null : Paths.get(options.get("prices")));
        int runs = options.integer("runs");
        List<String> rates = options.list("rates");

        System.out.printf("stork-bench: %d scenarios × %d workloads × %d runs%s%n", scenarios.size(),
                workloads.size(), runs, rates.isEmpty() ? "" : " × " + rates.size() + " link rates");
        System.out.println("  sizes: " + sizes.describe());
        Properties inputs;
        store.createBucket(options.get("output-bucket"));
        System.out.println("  preparing the input datasets in bucket " + options.get("input-bucket") + " ...");
        inputs = new InputDatasets(store, options.get("input-bucket"), sizes).prepare();
        Map<String, Results> byRate = new LinkedHashMap<>();
        if (!options.get("from-results").isEmpty()) {
            // Re-renders the report from the measurements of an earlier run (e.g. after a change to the
            // tables); measures nothing.
            Results earlier = new Results(scenarios, workloads, prices);
            earlier.add(new ObjectMapper().readValue(Paths.get(options.get("from-results")).toFile(),
                    new TypeReference<List<Measurement>>() {
                    }));
            byRate.put("", earlier);
            rates = List.of();
        }
        for (String rate : !byRate.isEmpty() ? List.<String>of() : rates.isEmpty() ? List.of("") : rates) {
            if (!rate.isEmpty()) {
                shapeLink(rate);
            }
            byRate.put(rate, campaign(scenarios, workloads, sizes, prices, runs, rate));
        }
        Duration took = Duration.between(started, Instant.now());
        ReportFile report = new ReportFile(repo.resolve(options.get("out")), options.get("name"), options, sizes,
                inputs, took);
        List<String> problems = report.write(byRate);
        System.out.println();
        System.out.println("report: " + report.markdown());
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("stork-bench: " + p));
            return 1;
        }
        return 0;
    }

    private Results campaign(List<Scenario> scenarios, List<Workload> workloads, BenchmarkSizes sizes,
                             PriceTable prices, int runs, String rate) throws IOException {
        Results results = new Results(scenarios, workloads, prices);
        int total = runs * scenarios.size();
        int done = 0;
        for (int run = 1; run <= runs; run++) {
            for (int i = 0; i < scenarios.size(); i++) {
                Scenario scenario = scenarios.get((i + run - 1) % scenarios.size());
                done++;
                System.out.printf("%n[%d/%d]%s run %d/%d: %s%n", done, total,
                        rate.isEmpty() ? "" : " link " + rate + ",", run, runs, scenario.label());
                String tag = scenario.id() + (rate.isEmpty() ? "" : "-" + rate) + "-run" + run;
                Path result = logs.resolve(tag + ".json");
                Files.deleteIfExists(result);
                int exit = runScenario(scenario, run, workloads, result, logs.resolve(tag + ".log"));
                if (exit == 0 && Files.exists(result)) {
                    results.add(new ObjectMapper().readValue(result.toFile(), new TypeReference<List<Measurement>>() {
                    }));
                } else {
                    String failure = scenario.label() + ", run " + run + (rate.isEmpty() ? "" : ", link " + rate)
                            + ": failed (exit " + exit + "); log: " + logs.resolve(tag + ".log");
                    System.out.println("    " + failure);
                    tail(logs.resolve(tag + ".log"));
                    results.failed(failure);
                }
                cleanOutput(scenario.id() + "/run-" + run + "/");
            }
        }
        return results;
    }

    private int runScenario(Scenario scenario, int run, List<Workload> workloads, Path result, Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-Dstork.repo.root=" + repo);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ScenarioRun.class.getName());
        command.addAll(List.of("--scenario", scenario.id(), "--run", Integer.toString(run), "--workloads",
                String.join(",", workloads.stream().map(Workload::id).toList()), "--input-bucket",
                options.get("input-bucket"), "--output-bucket", options.get("output-bucket"), "--through",
                options.get("through"), "--executors", options.get("executors"), "--result", result.toString()));
        command.addAll(options.sizeArguments());
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(log.toFile()).start();
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static void tail(Path log) throws IOException {
        if (Files.exists(log)) {
            List<String> lines = Files.readAllLines(log);
            lines.subList(Math.max(0, lines.size() - 25), lines.size()).forEach(l -> System.out.println("      " + l));
        }
    }

    /** Deletes one run's output, outside any measured window, so that runs do not see each other's data. */
    private void cleanOutput(String prefix) throws IOException {
        PrefixDeletion.deleteAll(store, options.get("output-bucket"), prefix);
    }

    private void shapeLink(String rate) throws IOException {
        System.out.printf("%n== link rate %s ==%n", rate);
        try {
            Process p = new ProcessBuilder("bash", repo.resolve("scripts/slow-link.sh").toString(), "rate", rate)
                    .inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("scripts/slow-link.sh rate " + rate + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    static Map<String, Object> machine() {
        Map<String, Object> m = new TreeMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        try {
            String mem = Files.readAllLines(Paths.get("/proc/meminfo")).get(0).replaceAll("\\D+", "");
            m.put("memory", Bytes.format(Long.parseLong(mem) * 1024.0));
        } catch (IOException | RuntimeException e) {
            m.put("memory", "unknown");
        }
        m.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        m.put("spark", org.apache.spark.package$.MODULE$.SPARK_VERSION());
        m.put("hadoop", org.apache.hadoop.util.VersionInfo.getVersion());
        return m;
    }
}
