package io.stork.bench.cache;

import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Benchmark (not a test) of the block cache: repeated full scans of one dataset (Parquet and text), through
 * Stork without the cache, Stork with it (the first scan of each run after emptying the cache: cold; the
 * rest warm) and S3A with and without its prefetching stream, all on the same objects of the local store in
 * one JVM. Per scan: wall time, and the GETs and bytes the store's access log saw. Writes
 * docs/benchmarks/&lt;name&gt;.md and a chart.
 */
public final class CacheBenchmark {

    private record Scenario(String id, String label, String scheme, String bucket) {
    }

    /** One scan: wall ms, GETs and bytes at the store. */
    private record Scan(long wallMs, long gets, long bytes) {
    }

    private static final Map<String, Long> CHECKSUMS = new java.util.concurrent.ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        long rows = Long.parseLong(opts.getOrDefault("rows", "2000000"));
        int objects = Integer.parseInt(opts.getOrDefault("objects", "8"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "3"));
        int warm = Integer.parseInt(opts.getOrDefault("warm-scans", "3"));
        String blockSize = opts.getOrDefault("block-size", "1m");
        String name = opts.getOrDefault("name", "block-cache");
        LocalStore store = LocalStore.shared();
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        String plain = "stork-bench-nocache-" + suffix;
        String cached = "stork-bench-cache-" + suffix;
        Path cacheDir = LocalStore.repoRoot().resolve(".stork/bench-block-cache");
        SparkSession spark = session(store, cached, cacheDir, blockSize);
        for (String bucket : List.of(plain, cached)) {
            ((StorkFileSystem) new org.apache.hadoop.fs.Path("stork://" + bucket + "/")
                    .getFileSystem(spark.sparkContext().hadoopConfiguration())).store().createBucket(bucket);
        }
        Dataset<Row> data = spark.range(0, rows, 1, objects).selectExpr("id", "id * 7 % 1000 AS k",
                "rand(1) AS x", "rand(2) * 1000 AS y", "concat('user-', CAST(id % 100000 AS STRING)) AS u",
                "sha2(CAST(id AS STRING), 256) AS note");
        // The same objects for every scenario: written once per bucket, S3A reads the first bucket's.
        for (String bucket : List.of(plain, cached)) {
            data.write().parquet("stork://" + bucket + "/events-parquet");
            data.write().csv("stork://" + bucket + "/events-text");
        }
        // The same bytes on the local disk, read through Hadoop's local file system: no store at all, so the
        // bound no cache can beat on this machine (what is left is Spark's own work).
        Path localCopy = LocalStore.repoRoot().resolve(".stork/bench-local-copy");
        empty(localCopy);
        org.apache.hadoop.conf.Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        for (String format : opts.getOrDefault("scenarios", "local").contains("local") ? List.of("parquet", "text")
                : List.<String>of()) {
            org.apache.hadoop.fs.Path source = new org.apache.hadoop.fs.Path("stork://" + plain + "/events-" + format);
            org.apache.hadoop.fs.FileUtil.copy(source.getFileSystem(hadoop), source,
                    org.apache.hadoop.fs.FileSystem.getLocal(hadoop).getRaw(), new org.apache.hadoop.fs.Path(
                            localCopy.resolve("events-" + format).toUri()), false, hadoop);
        }
        List<Scenario> all = List.of(
                new Scenario("stork", "Stork, no cache", "stork", plain),
                new Scenario("stork-cache", "Stork, block cache", "stork", cached),
                new Scenario("s3a", "S3A", "s3a", plain),
                // Prefetching is set per bucket: S3A reads the second bucket's copy of the same rows with it.
                new Scenario("s3a-prefetch", "S3A, prefetching stream", "s3a", cached),
                new Scenario("local", "local disk, no store (the bound for any cache)", "file", localCopy.toString()));
        // --scenarios stork,stork-cache: a campaign on fewer scenarios affords more runs (the cold cost is small
        // against the machine's noise). Stork without the cache stays: every ratio is against it.
        List<String> chosen = List.of(opts.getOrDefault("scenarios", "stork,stork-cache,s3a,s3a-prefetch,local")
                .split(","));
        List<Scenario> scenarios = all.stream().filter(s -> s.id().equals("stork") || chosen.contains(s.id())).toList();
        System.out.printf("stork-bench-cache: %,d rows in %d objects, %d runs of 1 + %d scans, blocks of %s%n", rows,
                objects, runs, warm, blockSize);
        Map<String, Map<String, List<Scan>>> cold = new LinkedHashMap<>();
        Map<String, Map<String, List<Scan>>> warmScans = new LinkedHashMap<>();
        Map<String, Long> sizes = new LinkedHashMap<>();
        for (String format : List.of("parquet", "text")) {
            sizes.put(format, size(spark, "stork://" + plain + "/events-" + format));
            for (Scenario scenario : scenarios) {
                scan(spark, store, scenario, format); // JIT and connection pools warm, not recorded
            }
            for (int run = 1; run <= runs; run++) {
                for (Scenario scenario : scenarios) {
                    if (scenario.id().equals("stork-cache")) {
                        empty(cacheDir);
                    }
                    settle();
                    for (int scan = 0; scan <= warm; scan++) {
                        Scan s = scan(spark, store, scenario, format);
                        (scan == 0 ? cold : warmScans).computeIfAbsent(format, k -> new LinkedHashMap<>())
                                .computeIfAbsent(scenario.id(), k -> new ArrayList<>()).add(s);
                        System.out.printf("  %-7s run %d %-13s %s %6d ms %4d GET %,13d bytes%n", format, run,
                                scenario.id(), scan == 0 ? "cold" : "warm", s.wallMs(), s.gets(), s.bytes());
                    }
                }
            }
        }
        Path report = LocalStore.repoRoot().resolve("docs/benchmarks/" + name + ".md");
        Files.writeString(report, CacheReport.render(opts.getOrDefault("command", "bash scripts/bench-cache.sh"),
                rows, objects, runs, warm, blockSize, opts.getOrDefault("link", "loopback"), sizes,
                scenarios.stream().map(s -> new String[] {s.id(), s.label()}).toList(), medians(cold),
                medians(warmScans), pairedColdCost(cold), name));
        CacheReport.chart(report.getParent().resolve(name), medians(warmScans), medians(cold),
                scenarios.stream().map(Scenario::id).toList());
        System.out.println("report: " + report);
        empty(localCopy);
        Files.deleteIfExists(localCopy);
        spark.stop();
    }

    static SparkSession session(LocalStore store, String cachedBucket, Path cacheDir, String blockSize) {
        String cache = "spark.hadoop.fs.stork.bucket." + cachedBucket + ".cache.";
        SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("stork-bench-cache")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.adaptive.enabled", "false")
                .config(cache + "enabled", "true")
                .config(cache + "directory", cacheDir.toString())
                .config(cache + "block.size", blockSize)
                .config("spark.hadoop.fs.s3a.bucket." + cachedBucket + ".prefetch.enabled", "true");
        return io.stork.bench.LocalStoreSessions.storkAndS3a(builder, store)
                .getOrCreate();
    }

    private static Scan scan(SparkSession spark, LocalStore store, Scenario scenario, String format) {
        String path = scenario.scheme() + "://" + scenario.bucket() + "/events-" + format;
        AccessLog.Window window = store.accessLog().openWindow();
        long start = System.nanoTime();
        Row result = format.equals("parquet")
                ? spark.read().parquet(path).selectExpr("bit_xor(xxhash64(*))", "count(*)").collectAsList().get(0)
                : spark.read().text(path).selectExpr("bit_xor(xxhash64(value))", "count(*)").collectAsList().get(0);
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        if (result.getLong(1) == 0) {
            throw new IllegalStateException(scenario.id() + " read no rows of " + path);
        }
        // Every scenario and scan must see the same rows: a cache serving wrong bytes fails the benchmark.
        long checksum = result.getLong(0) ^ result.getLong(1);
        Long expected = CHECKSUMS.putIfAbsent(format, checksum);
        if (expected != null && expected != checksum) {
            throw new IllegalStateException(scenario.id() + " read other rows of " + path + " than the first scan");
        }
        List<AccessLogEntry> entries = window.counts().entries().stream()
                .filter(e -> e.path().contains("/" + scenario.bucket() + "/") || e.path().endsWith("/" + scenario.bucket()))
                .toList();
        return new Scan(wallMs, entries.stream().filter(e -> e.method().equals("GET")).count(),
                entries.stream().mapToLong(AccessLogEntry::bytesSent).sum());
    }

    /**
     * Lets the page cache write back what earlier scans and deletions left dirty, so that no cold scan
     * pays for the one before it (on this machine that writeback slows the next transfer by a quarter).
     */
    private static void settle() throws IOException, InterruptedException {
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        Thread.sleep(500);
    }

    private static void empty(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static long size(SparkSession spark, String path) throws IOException {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
        return p.getFileSystem(spark.sparkContext().hadoopConfiguration()).getContentSummary(p).getLength();
    }

    /** format → scenario → {wall, GETs, bytes} medians. */
    private static Map<String, Map<String, long[]>> medians(Map<String, Map<String, List<Scan>>> scans) {
        Map<String, Map<String, long[]>> out = new LinkedHashMap<>();
        scans.forEach((format, byScenario) -> byScenario.forEach((scenario, list) -> out
                .computeIfAbsent(format, k -> new LinkedHashMap<>()).put(scenario, new long[] {
                        median(list.stream().mapToLong(Scan::wallMs).toArray()),
                        median(list.stream().mapToLong(Scan::gets).toArray()),
                        median(list.stream().mapToLong(Scan::bytes).toArray())})));
        return out;
    }

    /**
     * format → the cache's cold cost as the median over runs of (cold scan with the cache / cold scan
     * without it in the same run) − 1, and each run's value: runs are paired, so a slow moment of the
     * machine counts against both sides instead of against one.
     */
    private static Map<String, double[]> pairedColdCost(Map<String, Map<String, List<Scan>>> cold) {
        Map<String, double[]> out = new LinkedHashMap<>();
        cold.forEach((format, byScenario) -> {
            List<Scan> base = byScenario.get("stork");
            List<Scan> cached = byScenario.get("stork-cache");
            if (base == null || cached == null) {
                return;
            }
            double[] costs = new double[Math.min(base.size(), cached.size())];
            for (int i = 0; i < costs.length; i++) {
                costs[i] = (double) cached.get(i).wallMs() / base.get(i).wallMs() - 1;
            }
            out.put(format, costs);
        });
        return out;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, not " + args[i]);
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        return opts;
    }

    static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
