package io.stork.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.localstore.LocalStore;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The user's path, run as users run it: a pyspark application through {@code spark-submit --jars} with the
 * runtime jar, and a plain {@code python3} script with {@code --packages} (resolved from the local Maven
 * repository, where the build installs the jar) next to S3A and spark-hadoop-cloud. Each write API and read
 * API, both store APIs; every step's calls counted at the store and by the client, and the two agree.
 */
class UserPathProcessIT {

    private static final String EXTENSIONS = "io.stork.spark.StorkSparkExtensions";
    private static final String ROUTING = "io.stork.spark.SchemeRoutingCommitProtocol";
    private static final List<String> WRITES = List.of("sql-one-task", "sql-write-parquet", "sql-write-orc",
            "sql-write-json", "sql-write-csv", "sql-write-text", "sql-write-partitioned", "sql-insert-into", "sql-write-skipping",
            "rdd-save-as-text-file", "rdd-save-as-hadoop-file", "rdd-save-as-new-api-hadoop-file");

    private static String id() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private static Path script() {
        return Path.of("src/test/resources/python/user_path.py").toAbsolutePath();
    }

    @Test
    void sparkSubmitWithTheRuntimeJarRunsEveryWriteAndReadApiOverBothApisAndShowsNoSecret() throws Exception {
        String run = "submit-" + id();
        String s3 = "up-s3-" + id();
        String swift = "up-swift-" + id();
        Path work = SparkProcess.workDirectory("spark-submit");
        Path events = Files.createDirectories(work.resolve("events"));
        // Secrets nobody uses, set under every secret name: none may appear anywhere a user or an operator looks.
        String s3Secret = "S3-secret-" + UUID.randomUUID();
        String swiftSecret = "Swift-secret-" + UUID.randomUUID();
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.sql.extensions", EXTENSIONS);
        // Queries' history is written when the application ends (checked below), not inside a counted step.
        conf.put("spark.stork.layout.history.flushInterval", "1h");
        conf.putAll(SparkProcess.bucketConf(s3, "s3"));
        conf.putAll(SparkProcess.bucketConf(swift, "swift"));
        conf.put("spark.hadoop.fs.stork.bucket.unused.access.secret", s3Secret);
        conf.put("spark.hadoop.fs.stork.bucket.unused.swift.password", swiftSecret);
        conf.put("spark.hadoop.fs.stork.access.secret", s3Secret);
        conf.put("spark.hadoop.fs.stork.swift.password", swiftSecret);
        conf.put("spark.eventLog.enabled", "true");
        conf.put("spark.eventLog.dir", events.toUri().toString());
        conf.put("spark.eventLog.compress", "false"); // so that the search below reads what is there
        conf.put("spark.ui.port", "0");
        conf.put("spark.stork.test.store.endpoint", LocalStore.shared().s3Endpoint().toString());
        // A third bucket with the block cache on, as a user turns it on: two keys.
        String cached = "up-cache-" + id();
        conf.putAll(SparkProcess.bucketConf(cached, "s3"));
        conf.put("spark.hadoop.fs.stork.bucket." + cached + ".cache.enabled", "true");
        conf.put("spark.hadoop.fs.stork.bucket." + cached + ".cache.directory", work.resolve("block-cache").toString());
        conf.put("spark.hadoop.fs.stork.bucket." + cached + ".cache.eviction", "slru");
        conf.put("spark.stork.test.cache.bucket", cached);
        // A Swift bucket with segmented uploads, as a user sets them: 1 MiB segments, 256 KiB buffers.
        String segmented = "up-slo-" + id();
        conf.putAll(SparkProcess.bucketConf(segmented, "swift"));
        conf.put("spark.hadoop.fs.stork.bucket." + segmented + ".swift.segment.size", "1m");
        conf.put("spark.hadoop.fs.stork.bucket." + segmented + ".swift.upload.buffer.size", "256k");
        conf.put("spark.stork.test.segmented.bucket", segmented);

        List<String> command = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit").toString(),
                "--master", "local[2]", "--jars", SparkProcess.runtimeJar().toString(),
                "--py-files", SparkProcess.runtimeJar().toString())); // the jar also carries Stork's Python package
        command.addAll(SparkProcess.confArgs(conf));
        command.addAll(List.of(script().toString(), run, s3, swift));
        SparkProcess.Run result = SparkProcess.run("spark-submit", command, Map.of(), work);

        for (String bucket : List.of(s3, swift)) {
            assertStorkSession(result, bucket);
        }
        assertOtherSchemesKeepHadoopsCommitters(result);
        assertBlockCache(result, cached);
        assertSegmentedUploads(result, segmented);
        // Secrets: not in the event log, the UI's environment, the driver's output or its log.
        List<Path> places = new ArrayList<>(List.of(result.stdoutFile(), result.stderrFile()));
        try (Stream<Path> files = Files.walk(events)) {
            files.filter(Files::isRegularFile).forEach(places::add);
        }
        assertThat(places).as("event log written, naming the keys").anyMatch(p -> p.startsWith(events)
                && readable(p).contains("spark.hadoop.fs.stork.bucket.unused.swift.password"));
        assertThat(result.printed("UI-ENVIRONMENT ")).as("the UI shows the keys").contains("fs.stork.bucket.unused");
        for (Path place : places) {
            String text = readable(place);
            assertThat(text).as(place.toString()).doesNotContain(s3Secret).doesNotContain(swiftSecret);
        }

        // The dataset tool on what the application wrote: from the runtime jar with spark-submit (a machine
        // with Spark), and from the tools jar with java alone; bucket settings passed as each user would.
        Map<String, String> swiftConf = SparkProcess.bucketConf(swift, "swift");
        List<String> submitTool = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit").toString(),
                "--class", "io.stork.commit.DatasetTool"));
        submitTool.addAll(SparkProcess.confArgs(swiftConf));
        submitTool.addAll(List.of(SparkProcess.runtimeJar().toString(), "history",
                "stork://" + swift + "/" + run + "/partitioned"));
        List<String> history = SparkProcess.runTool("tool-spark-submit", submitTool, work);
        assertThat(history).anyMatch(l -> l.matches("\\s+1\\s+create\\s.*"))
                .anyMatch(l -> l.matches("\\s+2\\s+append\\s.*"));

        List<String> javaTool = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", System.getProperty("stork.tools.jar"), "inspect"));
        SparkProcess.bucketConf(s3, "s3").forEach((k, v) -> javaTool.add("-D" + k.substring("spark.hadoop.".length()) + "=" + v));
        javaTool.add("stork://" + s3 + "/" + run + "/fmt-parquet");
        List<String> inspect = SparkProcess.runTool("tool-java", javaTool, work);
        assertThat(inspect).anyMatch(l -> l.contains("generation 1 (create)")).anyMatch(l -> l.contains("parts: 2,"));

        // Statistics per column with java alone (no Spark classes: bloom filters are not read).
        javaTool.set(javaTool.indexOf("inspect"), "stats");
        javaTool.set(javaTool.size() - 1, "stork://" + s3 + "/" + run + "/skipping");
        List<String> stats = SparkProcess.runTool("tool-java-stats", javaTool, work);
        assertThat(stats).anyMatch(l -> l.contains("4 parts, 4 with statistics (400 rows)"))
                .anyMatch(l -> l.matches("id\\s+long\\s+0\\s+399\\s+0\\s+0\\s+4"));

        // A dataset property with java alone: a generation naming the same parts, then shown by inspect.
        javaTool.set(javaTool.indexOf("stats"), "set-property");
        javaTool.set(javaTool.size() - 1, "stork://" + s3 + "/" + run + "/fmt-parquet");
        javaTool.add("stork.retention=30d");
        assertThat(SparkProcess.runTool("tool-java-set-property", javaTool, work)).anyMatch(l -> l.endsWith(
                "fmt-parquet: generation 2 names the same 2 parts with properties {stork.retention=30d} (nothing rewritten)"));
        javaTool.remove(javaTool.size() - 1);
        javaTool.set(javaTool.indexOf("set-property"), "inspect");
        assertThat(SparkProcess.runTool("tool-java-inspect-property", javaTool, work))
                .anyMatch(l -> l.contains("generation 2 (maintenance)")).contains("  property stork.retention = 30d");
        javaTool.set(javaTool.indexOf("inspect"), "stats");

        // index needs Spark: with java alone, one line saying how to run it; with spark-submit, it runs.
        javaTool.set(javaTool.indexOf("stats"), "index");
        javaTool.set(javaTool.size() - 1, "stork://" + s3 + "/" + run + "/fmt-csv");
        javaTool.addAll(List.of("csv", "header=true"));
        Process noSpark = new ProcessBuilder(javaTool).directory(work.toFile()).redirectErrorStream(true).start();
        String said = new String(noSpark.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(noSpark.waitFor()).isEqualTo(2);
        assertThat(said.strip()).startsWith("stork-dataset: index runs a Spark job and Spark is not on the class path")
                .doesNotContain("\n").doesNotContain("Exception");
        List<String> submitIndex = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit").toString(),
                "--master", "local[2]", "--class", "io.stork.commit.DatasetTool"));
        submitIndex.addAll(SparkProcess.confArgs(SparkProcess.bucketConf(s3, "s3")));
        submitIndex.addAll(List.of(SparkProcess.runtimeJar().toString(), "index",
                "stork://" + s3 + "/" + run + "/fmt-csv", "csv", "header=true", "inferSchema=true"));
        List<String> indexed = SparkProcess.runTool("tool-spark-submit-index", submitIndex, work);
        assertThat(indexed).anyMatch(l -> l.startsWith("indexed 2 of 2 objects under stork://" + s3));

        // relayout through the dataset tool with spark-submit: the ORC dataset's generation 1 rewritten by a
        // k-d tree over (id, k) into 2 parts as generation 2.
        List<String> submitRelayout = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit")
                .toString(), "--master", "local[2]", "--class", "io.stork.commit.DatasetTool"));
        submitRelayout.addAll(SparkProcess.confArgs(SparkProcess.bucketConf(s3, "s3")));
        submitRelayout.addAll(List.of("--conf", "spark.sql.extensions=" + EXTENSIONS, SparkProcess.runtimeJar().toString(),
                "relayout", "stork://" + s3 + "/" + run + "/fmt-orc", "--kdtree", "id,k", "--buckets", "2"));
        List<String> relaid = SparkProcess.runTool("tool-spark-submit-relayout", submitRelayout, work);
        assertThat(relaid).anyMatch(l -> l.matches("relayout: stork://" + s3 + "/" + run + "/fmt-orc generation 1 -> 2: "
                + "2 parts \\(\\d+ bytes\\) rewritten into 2 parts \\(\\d+ bytes\\) by a kdtree over id,k, without "
                + "query history; 0 parts committed meanwhile kept"));
    }

    @Test
    void aPysparkScriptWithPackagesNextToS3aKeepsEachStoresCommitter() throws Exception {
        String run = "packages-" + id();
        String bucket = "up-pkg-" + id();
        Path work = SparkProcess.workDirectory("pyspark-packages");
        LocalStore local = LocalStore.shared();
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.sql.extensions", EXTENSIONS);
        conf.put("spark.stork.layout.history.flushInterval", "1h");
        conf.putAll(SparkProcess.bucketConf(bucket, "s3"));
        // S3A on the same store (plain HTTP, path-style, unsigned payloads: see docs/benchmarks.md).
        conf.put("spark.hadoop.fs.s3a.endpoint", local.s3Endpoint().toString());
        conf.put("spark.hadoop.fs.s3a.endpoint.region", local.s3Region());
        conf.put("spark.hadoop.fs.s3a.path.style.access", "true");
        conf.put("spark.hadoop.fs.s3a.connection.ssl.enabled", "false");
        conf.put("spark.hadoop.fs.s3a.signing-algorithm", "AWS4UnsignedPayloadSignerType");
        conf.put("spark.hadoop.fs.s3a.access.key", local.s3AccessKey());
        conf.put("spark.hadoop.fs.s3a.secret.key", local.s3SecretKey());
        conf.put("spark.stork.test.s3a.bucket", bucket);
        conf.put("spark.stork.test.store.endpoint", local.s3Endpoint().toString());
        conf.put("spark.ui.enabled", "false");
        conf.put("spark.jars.ivy", work.resolve("ivy").toString());

        List<String> submitArgs = new ArrayList<>(List.of("--master", "local[2]",
                "--packages", "io.stork:stork-spark-runtime:" + System.getProperty("stork.version"),
                "--jars", String.join(",", peerJars())));
        submitArgs.addAll(SparkProcess.confArgs(conf));
        submitArgs.add("pyspark-shell");
        Path sparkHome = SparkProcess.sparkHome();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PYSPARK_SUBMIT_ARGS", String.join(" ", submitArgs));
        env.put("PYSPARK_PYTHON", "python3");
        // As after `pip install pyspark`: the package and py4j importable, Spark's launcher found through them.
        try (Stream<Path> libs = Files.list(sparkHome.resolve("python/lib"))) {
            env.put("PYTHONPATH", sparkHome.getParent() + File.pathSeparator + libs
                    .filter(p -> p.getFileName().toString().startsWith("py4j")).map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator)));
        }
        SparkProcess.Run result = SparkProcess.run("pyspark-packages",
                List.of("python3", script().toString(), run, bucket), env, work);

        assertStorkSession(result, bucket);
        SparkProcess.Step s3a = result.step("s3a-one-task");
        assertThat(s3a.reported().get("rows").get(0).asText()).isEqualTo("0");
        assertThat(s3a.reported().get("committer").asText()).as("S3A's own committer, as Spark 4 picks it")
                .isEqualTo("magic");
        assertThat(s3a.atStore().byType()).as("S3A's calls reached the store").isNotEmpty();
        assertThat(result.step("s3a-rdd-save-as-text-file").reported().get("rows").toString())
                .isEqualTo("[\"over s3a\"]");
        assertOtherSchemesKeepHadoopsCommitters(result);
    }

    /** file:// RDD writes in a Stork session: Hadoop's FileOutputCommitter, its plain names and empty _SUCCESS. */
    private static void assertOtherSchemesKeepHadoopsCommitters(SparkProcess.Run result) {
        assertThat(result.step("rdd-other-scheme-old-api").reported().get("rows").toString()).isEqualTo("[\"local\"]");
        assertThat(result.step("rdd-other-scheme-new-api").reported().get("rows").toString()).isEqualTo("[\"k\\tlocal\"]");
        assertThat(result.step("rdd-other-scheme-old-api").reported().get("files").toString())
                .contains("\"part-00000\"", "\"_SUCCESS\"").doesNotContain("attempt_");
        assertThat(result.step("rdd-other-scheme-new-api").reported().get("files").toString())
                .contains("\"part-r-00000\"", "\"_SUCCESS\"").doesNotContain("attempt_");
    }

    /** Every step of user_path.py on one stork:// bucket: rows read back, calls at the store, both counts agree. */
    private static void assertStorkSession(SparkProcess.Run result, String bucket) {
        for (var entry : result.steps().entrySet()) {
            if (entry.getKey().endsWith("@" + bucket)) {
                SparkProcess.Step step = entry.getValue();
                assertThat(step.storeCalls()).as(entry.getKey() + ": calls at the store vs the client's count")
                        .isEqualTo(step.clientCalls());
            }
        }
        SparkProcess.Step oneTask = result.step("sql-one-task@" + bucket);
        assertThat(oneTask.reported().get("protocol").asText()).isEqualTo(ROUTING);
        assertThat(oneTask.atStore().total()).as("one-task SQL job: " + oneTask.storeCalls()).isEqualTo(3);
        for (String rdd : List.of("rdd-save-as-text-file", "rdd-save-as-hadoop-file", "rdd-save-as-new-api-hadoop-file")) {
            assertThat(result.step(rdd + "@" + bucket).storeCalls()).as(rdd + ": the output check (GET, LIST), the part, "
                    + "the manifest").isEqualTo(Map.of("GET", 1L, "LIST", 1L, "PUT", 2L));
        }
        for (String write : WRITES) {
            assertThat(result.step(write + "@" + bucket).storeCalls()).as(write + " renames nothing")
                    .doesNotContainKeys("COPY", "DELETE", "BULK_DELETE");
        }
        assertThat(rows(result, "sql-one-task-read", bucket)).isEqualTo("[\"0\"]");
        // Issue 26: the manifest's schema spares the driver's footer read; a catalog table costs what its path does.
        assertThat(result.step("sql-one-row-parquet@" + bucket).atStore().total()).as("one-task Parquet write")
                .isEqualTo(3);
        assertThat(rows(result, "sql-one-row-parquet-read", bucket)).isEqualTo("[\"0\"]");
        assertThat(result.step("sql-one-row-parquet-read@" + bucket).storeCalls()).as("the manifest, the part")
                .isEqualTo(Map.of("GET", 2L));
        assertThat(rows(result, "sql-read-table", bucket)).isEqualTo("[\"0\"]");
        assertThat(result.step("sql-read-table@" + bucket).storeCalls()).as("the table: the path read's calls")
                .isEqualTo(Map.of("GET", 2L));
        for (String fmt : List.of("parquet", "orc", "json", "csv")) {
            assertThat(rows(result, "sql-read-" + fmt, bucket)).as(fmt).isEqualTo("780");
        }
        assertThat(rows(result, "sql-read-text", bucket)).isEqualTo("40");
        assertThat(rows(result, "sql-read-partitioned", bucket)).isEqualTo("10");
        assertThat(rows(result, "sql-read-after-append", bucket)).isEqualTo("80");
        assertThat(result.step("sql-index-json@" + bucket).reported().get("indexed").asInt())
                .as("the index command from Python").isEqualTo(2);
        SparkProcess.Step laid = result.step("layout-kd-tree@" + bucket);
        assertThat(laid.reported().get("partitions").asInt()).as("one partition per bucket").isEqualTo(4);
        assertThat(laid.reported().get("same_model").asBoolean()).as("the model saved and read back").isTrue();
        assertThat(laid.reported().get("total").asLong()).isEqualTo(400);
        List<Long> inBox = new ArrayList<>();
        laid.reported().get("rows").forEach(n -> inBox.add(n.asLong()));
        List<Long> expectedInBox = new ArrayList<>();
        for (long id = 0; id < 100; id++) {
            if (id % 20 < 5) {
                expectedInBox.add(id);
            }
        }
        assertThat(inBox).as("x < 5 AND y < 5").isEqualTo(expectedInBox);
        assertThat(laid.reported().get("objects_listed").asLong()).isEqualTo(4);
        assertThat(laid.reported().get("objects_read").asLong()).as("the box's corner bucket only").isEqualTo(1);
        SparkProcess.Step relaid = result.step("layout-relayout@" + bucket);
        assertThat(relaid.reported().get("source_generation").asLong()).isEqualTo(2);
        assertThat(relaid.reported().get("generation").asLong()).as("one new generation").isEqualTo(3);
        assertThat(relaid.reported().get("parts_before").asInt()).isEqualTo(5);
        assertThat(relaid.reported().get("parts_after").asInt()).isEqualTo(4);
        assertThat(relaid.reported().get("parts_kept").asInt()).isEqualTo(0);
        assertThat(relaid.reported().get("total").asLong()).isEqualTo(440);
        assertThat(relaid.reported().get("rows").asInt()).as("x < 5 AND y < 5").isEqualTo(25);
        assertThat(relaid.reported().get("same_rows").asBoolean()).isTrue();
        assertThat(relaid.reported().get("read_before").asLong()).isEqualTo(4);
        assertThat(relaid.reported().get("read_after").asLong()).as("after the relayout").isEqualTo(1);
        assertThat(relaid.reported().get("saved_model").asBoolean()).isTrue();
        // The queries' history, written when the application stopped (flush interval 1h): one PUT per dataset.
        List<String> historyPuts = result.after("end").stream().filter(e -> e.method().equals("PUT")
                && e.path().contains("/" + bucket + "/") && e.path().endsWith("/_stork/layout/history.json"))
                .map(e -> e.path()).toList();
        assertThat(historyPuts).as("history written at application end")
                .anyMatch(p -> p.endsWith("/laid-out/_stork/layout/history.json"))
                .anyMatch(p -> p.endsWith("/relayout/_stork/layout/history.json"))
                .anyMatch(p -> p.endsWith("/skipping/_stork/layout/history.json"));
        SparkProcess.Step skipping = result.step("sql-read-skipping@" + bucket);
        assertThat(rows(result, "sql-read-skipping", bucket)).isEqualTo("[123]");
        assertThat(skipping.reported().get("objects_listed").asLong()).isEqualTo(4);
        assertThat(skipping.reported().get("objects_read").asLong()).as("data skipping from pyspark").isEqualTo(1);
        assertThat(skipping.atStore().calls(io.stork.store.CallType.GET))
                .as("schema footer, the one object read, at most the manifest: " + skipping.storeCalls())
                .isLessThanOrEqualTo(3);
        assertThat(rows(result, "rdd-text-file", bucket)).isEqualTo("[\"hello\"]");
        assertThat(rows(result, "rdd-whole-text-files", bucket)).isEqualTo("[\"hello\\n\"]");
        assertThat(rows(result, "rdd-binary-files", bucket)).isEqualTo("[\"hello\\n\"]");
        assertThat(rows(result, "rdd-read-hadoop-old", bucket)).isEqualTo("[\"k\\tv\"]");
        assertThat(rows(result, "rdd-read-hadoop-new", bucket)).isEqualTo("[\"k\\tv\"]");
    }

    /** The bucket with the block cache on: the second scan opens no part at the store, with the same rows. */
    private static void assertBlockCache(SparkProcess.Run result, String bucket) {
        SparkProcess.Step first = result.step("cache-first-scan@" + bucket);
        SparkProcess.Step second = result.step("cache-second-scan@" + bucket);
        for (SparkProcess.Step step : List.of(first, second)) {
            assertThat(step.storeCalls()).as(step.name() + ": calls at the store vs the client's count")
                    .isEqualTo(step.clientCalls());
        }
        assertThat(second.reported().get("rows")).isEqualTo(first.reported().get("rows"));
        assertThat(first.reported().get("rows").get(0).asLong()).isEqualTo(20000);
        assertThat(first.atStore().calls(io.stork.store.CallType.GET)).as("the first scan reads the parts: "
                + first.storeCalls()).isGreaterThanOrEqualTo(4);
        assertThat(second.atStore().calls(io.stork.store.CallType.GET)).as("the second, at most the manifest's "
                + "revalidation: " + second.storeCalls()).isLessThanOrEqualTo(1);
        assertThat(second.reported().get("cache_hits").asLong()).isGreaterThan(first.reported().get("cache_hits").asLong());
    }

    /** The part (3.9 MB of text, one task) went up in 1 MiB segments, read back whole, and its delete took them. */
    private static void assertSegmentedUploads(SparkProcess.Run result, String bucket) {
        SparkProcess.Step write = result.step("segmented-write@" + bucket);
        SparkProcess.Step read = result.step("segmented-read@" + bucket);
        SparkProcess.Step delete = result.step("segmented-delete@" + bucket);
        for (SparkProcess.Step step : List.of(write, read, delete)) {
            assertThat(step.storeCalls()).as(step.name() + ": calls at the store vs the client's count")
                    .isEqualTo(step.clientCalls());
        }
        assertThat(write.atStore().calls(io.stork.store.CallType.PUT)).as("four segments, the manifest, the _SUCCESS: "
                + write.storeCalls()).isGreaterThanOrEqualTo(6);
        assertThat(read.reported().get("rows").get(0).asLong()).isEqualTo(60000);
        assertThat(read.reported().get("segments").asLong()).isEqualTo(4);
        assertThat(delete.reported().get("deleted").asBoolean()).isTrue();
        assertThat(delete.reported().get("segments").asLong()).as("the segments went with the part").isZero();
    }

    private static String readable(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String rows(SparkProcess.Run result, String step, String bucket) {
        return result.step(step + "@" + bucket).reported().get("rows").toString();
    }

    /** hadoop-aws, spark-hadoop-cloud and the AWS SDK modules S3A uses, as a user passes them. */
    private static List<String> peerJars() {
        List<String> jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> p.contains("hadoop-aws-") || p.contains("spark-hadoop-cloud_")
                        || p.contains(File.separator + "software" + File.separator + "amazon" + File.separator)
                        || p.contains(File.separator + "reactivestreams" + File.separator))
                .toList();
        assertThat(jars).as("peer jars").anyMatch(j -> j.contains("hadoop-aws-"))
                .anyMatch(j -> j.contains("spark-hadoop-cloud_"));
        return jars;
    }
}
