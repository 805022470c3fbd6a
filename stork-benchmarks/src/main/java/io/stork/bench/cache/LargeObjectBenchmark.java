package io.stork.bench.cache;

import io.stork.hadoop.StorkFileSystem;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Benchmark (not a test): one large object (a text file written by one task, so one object uploaded in
 * S3 multipart parts of {@code fs.stork.multipart.size}) read by a Spark scan as one split, and as splits of
 * {@code --split-mib} (a multiple of the part size, so every split starts on a part boundary) that tasks
 * read in parallel, disjoint ranges each. Wall time, GETs and bytes at the store; the same result required
 * of both. Writes docs/benchmarks/&lt;name&gt;.md.
 */
public final class LargeObjectBenchmark {

    private record Scan(long wallMs, long gets, long bytes, int tasks) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = CacheBenchmark.options(args);
        long sizeMib = Long.parseLong(opts.getOrDefault("size-mib", "2048"));
        long splitMib = Long.parseLong(opts.getOrDefault("split-mib", "128"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "3"));
        String name = opts.getOrDefault("name", "large-object");
        LocalStore store = LocalStore.shared();
        String bucket = "stork-bench-large-" + UUID.randomUUID().toString().substring(0, 6);
        SparkSession spark = io.stork.bench.LocalStoreSessions.storkAndS3a(SparkSession.builder(), store)
                .master("local[2]").appName("stork-bench-large").config("spark.ui.enabled", "false")
                .config("spark.sql.adaptive.enabled", "false").getOrCreate();
        StorkFileSystem fs = (StorkFileSystem) new org.apache.hadoop.fs.Path("stork://" + bucket + "/")
                .getFileSystem(spark.sparkContext().hadoopConfiguration());
        fs.store().createBucket(bucket);
        String path = "stork://" + bucket + "/large-text";
        // About 64 bytes a line: one task writes the whole object.
        long rows = sizeMib * 1024 * 1024 / 64;
        long writeStart = System.nanoTime();
        spark.range(0, rows, 1, 1).selectExpr("concat(lpad(CAST(id AS STRING), 12, '0'), ',', "
                + "lpad(CAST(id * 7919 % 1000003 AS STRING), 8, '0'), ',', repeat('x', 41)) AS value").write().text(path);
        long writeMs = (System.nanoTime() - writeStart) / 1_000_000;
        FileStatus[] parts = fs.listStatus(new org.apache.hadoop.fs.Path(path), p -> p.getName().startsWith("part-"));
        if (parts.length != 1) {
            throw new IllegalStateException("expected one object, got " + parts.length);
        }
        long objectBytes = parts[0].getLen();
        String partSize = spark.sparkContext().hadoopConfiguration().get("fs.stork.multipart.size", "32M");
        System.out.printf("stork-bench-large: one object of %,d bytes (written in %,d ms), splits of %d MiB, %d runs%n",
                objectBytes, writeMs, splitMib, runs);
        spark.read().text(path).selectExpr("count(*)").collectAsList(); // JIT and connections warm, not counted
        List<Scan> whole = new ArrayList<>();
        List<Scan> split = new ArrayList<>();
        Long expected = null;
        for (int run = 1; run <= runs; run++) {
            for (boolean one : new boolean[] {true, false}) {
                spark.conf().set("spark.sql.files.maxPartitionBytes", Long.toString(one ? objectBytes * 2
                        : splitMib * 1024 * 1024));
                // Spark splits by bytes per core as well: one split needs its minimum partition count at 1.
                spark.conf().set("spark.sql.files.minPartitionNum", one ? "1" : "2");
                AccessLog.Window window = store.accessLog().openWindow();
                long start = System.nanoTime();
                var df = spark.read().text(path).selectExpr("count(*)", "bit_xor(xxhash64(value))");
                int tasks = spark.read().text(path).javaRDD().getNumPartitions(); // the scan's splits
                Row r = df.collectAsList().get(0);
                long wallMs = (System.nanoTime() - start) / 1_000_000;
                long checksum = r.getLong(0) ^ r.getLong(1);
                if (r.getLong(0) != rows || (expected != null && expected != checksum)) {
                    throw new IllegalStateException("the scans disagree: " + r);
                }
                expected = checksum;
                List<AccessLogEntry> entries = window.counts().entries().stream()
                        .filter(e -> e.path().contains("/" + bucket + "/")).toList();
                Scan scan = new Scan(wallMs, entries.stream().filter(e -> e.method().equals("GET")).count(),
                        entries.stream().mapToLong(AccessLogEntry::bytesSent).sum(), tasks);
                (one ? whole : split).add(scan);
                System.out.printf("  run %d %-12s %6d ms %3d GET %,14d bytes%n", run, one ? "one split" : tasks + " splits",
                        wallMs, scan.gets(), scan.bytes());
            }
        }
        long w = CacheBenchmark.median(whole.stream().mapToLong(Scan::wallMs).toArray());
        long s = CacheBenchmark.median(split.stream().mapToLong(Scan::wallMs).toArray());
        StringBuilder md = new StringBuilder("# One large object: one split against part-aligned splits\n\n")
                .append("Generated by `").append(opts.getOrDefault("command", "bash scripts/bench-cache.sh --large"))
                .append("` on ").append(java.time.LocalDate.now()).append(". Do not edit: rerun the command.\n\n")
                .append(CacheBenchmark.format("- One text object of %,d bytes (%,d lines), written by one task through "
                        + "Stork's S3 API: a multipart upload in parts of %s.%n", objectBytes, rows, partSize))
                .append(CacheBenchmark.format("- Read with `spark.read.text` (`count(*)`, `bit_xor(xxhash64(value))`, "
                        + "the same result required) as one split (`spark.sql.files.minPartitionNum=1`, `maxPartitionBytes` "
                        + "past the object's size), and as splits of %d MiB (`spark.sql.files.maxPartitionBytes`; a multiple of the part size, so each starts on a part "
                        + "boundary): tasks read disjoint ranges in parallel, one ranged GET each.%n", splitMib))
                .append("- Local store; link: ").append(opts.getOrDefault("link", "loopback")).append("; Spark local[2]; ").append(runs).append(" runs, medians; GETs and "
                        + "bytes at the store's access log.\n\n")
                .append("| read as | tasks | wall | GETs | bytes from the store |\n|---|---:|---:|---:|---:|\n")
                .append(row("one split", whole))
                .append(row(splitMib + " MiB splits", split))
                .append(CacheBenchmark.format("%nSpeed-up of part-aligned splits: ×%.2f.%n", (double) w / s));
        Path report = LocalStore.repoRoot().resolve("docs/benchmarks/" + name + ".md");
        Files.writeString(report, md.toString());
        System.out.printf("speed-up ×%.2f; report: %s%n", (double) w / s, report);
        spark.stop();
    }

    private static String row(String label, List<Scan> scans) {
        return CacheBenchmark.format("| %s | %d | %d ms | %d | %.1f MiB |%n", label, scans.get(0).tasks(),
                CacheBenchmark.median(scans.stream().mapToLong(Scan::wallMs).toArray()),
                CacheBenchmark.median(scans.stream().mapToLong(Scan::gets).toArray()),
                CacheBenchmark.median(scans.stream().mapToLong(Scan::bytes).toArray()) / (1024.0 * 1024.0));
    }
}
