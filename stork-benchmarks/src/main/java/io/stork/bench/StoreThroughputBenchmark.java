package io.stork.bench;

import io.stork.store.ByteRange;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreApi;
import io.stork.store.UploadStream;
import io.stork.store.StoreFactory;
import io.stork.store.s3.S3StoreConfig;
import io.stork.store.swift.SwiftStoreConfig;
import io.stork.localstore.LocalStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Single-stream PUT and GET of one large object, by curl and by Stork's clients, for each API, on the
 * same store in the same run, interleaved run by run so that drift on a shared machine hits both alike.
 * Prints the medians and the ratio Stork / curl (target: at least 0.90 both ways).
 *
 * <p>Usage: {@code StoreThroughputBenchmark [--size-mib 512] [--runs 5] [--report docs/benchmarks/x.md]}
 */
public final class StoreThroughputBenchmark {

    private static final int MIB = 1024 * 1024;
    private static final double TARGET = 0.90;

    private final LocalStore local;
    private final long size;
    private final Path file;
    private final Path work;
    private final Map<String, List<Double>> results = new LinkedHashMap<>();
    private boolean warmUp;

    private StoreThroughputBenchmark(LocalStore local, long size, Path work) {
        this.local = local;
        this.size = size;
        this.work = work;
        this.file = work.resolve("object.bin");
    }

    public static void main(String[] args) throws Exception {
        int sizeMib = 512;
        int runs = 5;
        Path report = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size-mib" -> sizeMib = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--report" -> report = Paths.get(args[++i]);
                default -> {
                    System.err.println("unknown argument " + args[i]
                            + "; usage: [--size-mib N] [--runs N] [--report FILE]");
                    System.exit(2);
                }
            }
        }
        LocalStore local = LocalStore.shared();
        Path work = Files.createTempDirectory("stork-bench");
        StoreThroughputBenchmark bench = new StoreThroughputBenchmark(local, (long) sizeMib * MIB, work);
        try {
            bench.run(runs);
            String table = bench.table(sizeMib, runs);
            System.out.println();
            System.out.println(table);
            if (report != null) {
                bench.writeReport(report, table, sizeMib, runs, String.join(" ", args));
                System.out.println("report written to " + report);
            }
        } finally {
            try (var files = Files.list(work)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(work);
        }
    }

    private void run(int runs) throws Exception {
        System.out.printf("writing a %d MiB test file...%n", size / MIB);
        writeRandomFile();
        Path netrc = work.resolve("netrc");
        Files.writeString(netrc, "machine 127.0.0.1 login " + local.s3AccessKey() + " password "
                + local.s3SecretKey() + "\n");
        Files.setPosixFilePermissions(netrc, PosixFilePermissions.fromString("rw-------"));
        String[] swiftAuth = swiftToken();
        String bucket = "stork-bench";
        // Raw clients (no retry decorator): the benchmark measures the wire, as curl does.
        try (ObjectStore s3 = StoreFactory.openRaw(S3StoreConfig.of(local.s3Endpoint(), local.s3Region(),
                local.s3AccessKey(), local.s3SecretKey()));
             ObjectStore swift = StoreFactory.openRaw(SwiftStoreConfig.of(local.swiftAuthUrl(), local.swiftUser(),
                     local.swiftKey()))) {
            s3.createBucket(bucket);
            ObjectKey key = ObjectKey.of(bucket, "throughput/object.bin");
            String s3Url = local.s3Endpoint() + "/" + bucket + "/throughput/object.bin";
            String swiftUrl = swiftAuth[1] + "/" + bucket + "/throughput/object.bin";
            List<String> s3Curl = List.of("--aws-sigv4", "aws:amz:" + local.s3Region() + ":s3", "--netrc-file",
                    netrc.toString(), "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD");
            List<String> swiftCurl = List.of("-H", "X-Auth-Token: " + swiftAuth[0]);
            for (int run = 0; run <= runs; run++) {
                // Run 0 warms the JVM up (class loading, JIT): a client starts once and then serves many calls.
                System.out.println(run == 0 ? "warm-up run (not counted)" : String.format("run %d/%d", run, runs));
                warmUp = run == 0;
                for (StoreApi api : StoreApi.wire()) {
                    ObjectStore store = api == StoreApi.S3 ? s3 : swift;
                    List<String> auth = api == StoreApi.S3 ? s3Curl : swiftCurl;
                    String url = api == StoreApi.S3 ? s3Url : swiftUrl;
                    String name = api.id().toUpperCase(Locale.ROOT);
                    // Alternate who goes first (curl, Stork / Stork, curl) so that neither always meets
                    // the store right after the other's delete, or its background work.
                    boolean curlFirst = run % 2 == 1;
                    Step curlPut = () -> measure(name + " PUT curl", () -> curl(auth, "-T", file.toString(), url));
                    Step storkPut = () -> measure(name + " PUT stork",
                            () -> store.put(key, PutBody.ofFile(file), PutOptions.defaults()));
                    Step curlGet = () -> measure(name + " GET curl", () -> curl(auth, "-o", "/dev/null", url));
                    Step storkGet = () -> measure(name + " GET stork", () -> download(store, key));
                    (curlFirst ? curlPut : storkPut).run();
                    store.delete(key);
                    (curlFirst ? storkPut : curlPut).run();
                    store.delete(key);
                    measure(name + " PUT stork streaming", () -> streamUpload(store, key));
                    (curlFirst ? curlGet : storkGet).run();
                    (curlFirst ? storkGet : curlGet).run();
                    store.delete(key);
                }
            }
            s3.deleteBucket(bucket);
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private void measure(String name, Step step) throws Exception {
        settle();
        long start = System.nanoTime();
        step.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        double mbPerSecond = size / 1e6 / seconds;
        if (!warmUp) {
            results.computeIfAbsent(name, k -> new ArrayList<>()).add(mbPerSecond);
        }
        System.out.printf("  %-28s %8.1f MB/s%n", name, mbPerSecond);
    }

    /**
     * Lets the store finish the previous transfer's background work before the next is timed: the page
     * cache's writeback of the 512 MiB just written (or deleted) otherwise slows whichever transfer comes
     * second by a quarter (runs of 2026-11-23 showed it alternating with the order). Not timed.
     */
    private static void settle() throws IOException, InterruptedException {
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        Thread.sleep(500);
    }

    private void streamUpload(ObjectStore store, ObjectKey key) throws IOException {
        try (InputStream in = Files.newInputStream(file);
             UploadStream out = store.create(key, PutOptions.defaults())) {
            in.transferTo(out);
        }
    }

    private void download(ObjectStore store, ObjectKey key) throws IOException {
        byte[] buffer = new byte[MIB];
        long total = 0;
        try (ObjectStream in = store.get(key, ByteRange.all())) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
            }
        }
        if (total != size) {
            throw new IOException("read " + total + " bytes, expected " + size);
        }
    }

    private void curl(List<String> auth, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-f"));
        command.addAll(auth);
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IOException("curl failed: " + output.trim());
        }
    }

    private String[] swiftToken() throws IOException, InterruptedException {
        HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(local.swiftAuthUrl())
                .header("X-Auth-User", local.swiftUser()).header("X-Auth-Key", local.swiftKey()).build(),
                HttpResponse.BodyHandlers.discarding());
        return new String[] {response.headers().firstValue("X-Auth-Token").orElseThrow(),
                response.headers().firstValue("X-Storage-Url").orElseThrow()};
    }

    private void writeRandomFile() throws IOException {
        Random random = new Random(1);
        byte[] block = new byte[MIB];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += MIB) {
                random.nextBytes(block);
                out.write(block, 0, (int) Math.min(MIB, size - written));
            }
        }
    }

    private static String runs(List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList().toString();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private String table(int sizeMib, int runs) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Single-stream throughput, %d MiB object, median of %d runs after one warm-up run (MB/s = 10^6 B/s)%n%n",
                sizeMib, runs));
        b.append("Stork / curl is the median of the per-run ratios: each run pairs a curl and a Stork transfer made"
                + " back to back, so the pair shares the machine's state of the moment.\n\n");
        b.append("| API | direction | curl MB/s | Stork MB/s | Stork / curl | target ≥ 0.90 | curl runs | Stork runs |\n");
        b.append("|---|---|---:|---:|---:|---|---|---|\n");
        for (StoreApi api : StoreApi.wire()) {
            for (String direction : List.of("PUT", "GET")) {
                List<Double> curlValues = results.get(api.id().toUpperCase(Locale.ROOT) + " " + direction + " curl");
                double curl = median(curlValues);
                List<String> variants = direction.equals("PUT") ? List.of("stork", "stork streaming") : List.of("stork");
                for (String variant : variants) {
                    List<Double> values = results.get(api.id().toUpperCase(Locale.ROOT) + " " + direction + " " + variant);
                    double stork = median(values);
                    List<Double> ratios = new ArrayList<>();
                    for (int i = 0; i < values.size(); i++) {
                        ratios.add(values.get(i) / curlValues.get(i));
                    }
                    double ratio = median(ratios);
                    b.append(String.format(Locale.ROOT, "| %s | %s%s | %.1f | %.1f | %.2f | %s | %s | %s |%n", api.displayName(),
                            direction, variant.equals("stork") ? (direction.equals("PUT") ? " (known length)" : "")
                                    : " (streaming, unknown length)",
                            curl, stork, ratio, ratio >= TARGET ? "met" : "**missed**", runs(curlValues), runs(values)));
                }
            }
        }
        return b.toString();
    }

    private void writeReport(Path report, String table, int sizeMib, int runs, String args) throws IOException {
        Files.createDirectories(report.toAbsolutePath().getParent());
        String cpu = Files.readAllLines(Paths.get("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown CPU");
        String text = "# Object-store client throughput: Stork vs curl\n\n"
                + "Measured " + LocalDate.now() + " on " + Runtime.getRuntime().availableProcessors() + " cores ("
                + cpu + "), " + (Runtime.getRuntime().maxMemory() / MIB) + " MiB max heap, Java "
                + System.getProperty("java.version") + ", against the local Swift 2.30 + s3api store on loopback "
                + "(one proxy worker).\n\n"
                + "Command: `bash scripts/bench-store.sh " + args.replaceAll("--report \\S+", "").trim() + "`\n\n"
                + table + "\n"
                + "curl reads a file from the page cache and writes GET bodies to /dev/null; Stork reads the same file"
                + " (known length: one PUT of the file; streaming: copied through an UploadStream: S3 multipart with"
                + " 32 MiB parts, 2 in flight (the defaults); Swift chunked transfer with 1 MiB buffers) and discards GET bodies"
                + " through a 1 MiB buffer. Before each timed transfer the benchmark runs sync and waits 0.5 s, so that"
                + " the store's writeback of the previous transfer does not slow the next. Runs are interleaved, and"
                + " who goes first alternates run by run, so that"
                + " the drift of a shared machine affects both alike.\n";
        Files.writeString(report, text);
    }
}
