package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.localstore.LocalStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The commit protocol under faults, with Spark as a standalone cluster on loopback (a master, two workers
 * on their own addresses, executors in JVMs of their own; see {@link LoopbackStandaloneCluster}): speculation on
 * and tuned to fire, first attempts failing before the write, mid-write and after the write before their
 * commit, and an executor killed mid-job. Each round writes a dataset through each API and reads it back:
 * exactly the expected rows, nothing missing, nothing doubled, no stray part visible, one part per task in
 * the manifest. Each round runs Stork's commit protocol and Spark's default one (Hadoop's classic
 * committer, whose temporary tree the file system emulates) through each API, and RDD writes through
 * Hadoop's old and new output-format APIs with Stork's committers (task commits reported through Spark).
 * Each round also runs a job that fails for good: it must leave no manifest.
 *
 * <p>Rounds per API: {@code -Dstork.campaign.rounds} (2 in the default test run; scripts/failure-campaign.sh
 * runs 20). Needs SPARK_HOME (scripts/spark-home.sh, which scripts/test.sh calls) for the executors.
 */
class CommitFailureCampaignIT {

    private static final int PARTITIONS = 6; // one per kind of fault: see FaultPlan
    private static final int ROWS_PER_PARTITION = 200;
    private static final String S3_BUCKET = "it-campaign-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-campaign-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static SparkSession spark;
    private static LoopbackStandaloneCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        LocalStore.shared();
        cluster = new LoopbackStandaloneCluster(2, 1, 1024);
        spark = cluster.session(SparkOnLocalStore.builder("stork-failure-campaign", S3_BUCKET, SWIFT_BUCKET), "900m")
                .config("spark.sql.sources.commitProtocolClass", FaultyCommitProtocol.class.getName())
                .config("spark.task.maxFailures", "4")
                .config("spark.speculation", "true")
                .config("spark.speculation.interval", "100ms")
                .config("spark.speculation.quantile", "0.5")
                .config("spark.speculation.multiplier", "1.5")
                .config("spark.speculation.minTaskRuntime", "200ms")
                .config("spark.speculation.efficiency.enabled", "false")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, S3_BUCKET, SWIFT_BUCKET);
        spark.sparkContext().addSparkListener(EVENTS);
    }

    /** What the scheduler did: speculative launches, failed attempts, executors lost. */
    private static final class Events extends org.apache.spark.scheduler.SparkListener {
        final java.util.concurrent.atomic.AtomicInteger speculativeLaunches = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger failedAttempts = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger executorsLost = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public void onTaskStart(org.apache.spark.scheduler.SparkListenerTaskStart start) {
            if (start.taskInfo().speculative()) {
                speculativeLaunches.incrementAndGet();
            }
        }

        @Override
        public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
            if (end.taskInfo().failed() || end.taskInfo().killed()) {
                failedAttempts.incrementAndGet();
            }
        }

        @Override
        public void onExecutorRemoved(org.apache.spark.scheduler.SparkListenerExecutorRemoved removed) {
            executorsLost.incrementAndGet();
        }
    }

    private static final Events EVENTS = new Events();

    /** What executors need beyond SPARK_HOME's jars: the project's classes and its dependencies. */
    @AfterAll
    static void stopCluster() {
        if (spark != null) {
            spark.stop();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Rows of a partition, with the planned fault acted out as the writer consumes them. */
    private static final class FaultyRows implements MapPartitionsFunction<Long, String> {
        @Override
        public Iterator<String> call(Iterator<Long> ids) {
            FaultPlan.Fault fault = FaultPlan.current();
            List<String> rows = new ArrayList<>();
            ids.forEachRemaining(id -> rows.add(Long.toString(id)));
            Iterator<String> it = rows.iterator();
            return new Iterator<>() {
                private int served;

                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public String next() {
                    served++;
                    if (served == 1 && fault == FaultPlan.Fault.FAIL_BEFORE_WRITE) {
                        throw new IllegalStateException("campaign fault: task fails before writing");
                    }
                    if (served == rows.size() / 2) {
                        if (fault == FaultPlan.Fault.FAIL_MID_WRITE) {
                            throw new IllegalStateException("campaign fault: task fails mid-write");
                        }
                        if (fault == FaultPlan.Fault.KILL_EXECUTOR) {
                            Runtime.getRuntime().halt(137);
                        }
                        if (fault == FaultPlan.Fault.SLOW) {
                            sleep(10_000);
                        }
                    }
                    return it.next();
                }
            };
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // a speculative twin won: Spark kills this attempt
            }
        }
    }

    private static Manifest manifest(StorkFileSystem fs, String dataset) throws IOException {
        try (InputStream in = fs.open(new Path(dataset, PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset);
        }
    }

    private static int strayParts(StorkFileSystem fs, String bucket, String dataset, Manifest manifest) throws IOException {
        Set<String> named = manifest.parts().stream().map(ManifestPart::path).collect(Collectors.toSet());
        String prefix = new Path(dataset).toUri().getPath().substring(1) + "/";
        int strays = 0;
        try (var it = fs.store().list(ListRequest.of(bucket, prefix))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                String relative = entry.name().substring(prefix.length());
                if (relative.startsWith(PartNames.INTERNAL_DIRECTORY + "/")) {
                    continue; // task markers and claims: Stork's bookkeeping, not parts
                }
                if (PartNames.isAttemptNamed(PartNames.fileName(relative)) && !named.contains(relative)) {
                    strays++;
                }
            }
        }
        return strays;
    }

    /** RDD writes commit with Stork's committers (as the extension binds them), with the campaign's commit fault. */
    private static void bindRddCommitters(boolean on) {
        var conf = spark.sparkContext().hadoopConfiguration();
        if (on) {
            conf.set("mapred.output.committer.class", FaultyRddCommitters.Mapred.class.getName());
            conf.set("mapreduce.outputcommitter.factory.scheme.stork", FaultyRddCommitters.Factory.class.getName());
        } else {
            conf.unset("mapred.output.committer.class");
            conf.unset("mapreduce.outputcommitter.factory.scheme.stork");
        }
    }

    @Test
    void outputIsExactUnderFailuresSpeculationAndALostExecutor() throws Exception {
        int rounds = Integer.getInteger("stork.campaign.rounds", 2);
        List<String> expected = IntStream.range(0, PARTITIONS * ROWS_PER_PARTITION).mapToObj(Integer::toString)
                .sorted().toList();
        List<String> failures = new ArrayList<>();
        Map<FaultPlan.Fault, Integer> injected = new EnumMap<>(FaultPlan.Fault.class);
        int strays = 0;
        int jobs = 0;
        // Per protocol: jobs, strays right after, strays later, cleanup LISTs, bulk DELETEs.
        Map<String, long[]> byProtocol = new java.util.LinkedHashMap<>();
        List<Object[]> written = new ArrayList<>(); // protocol, fs, bucket, path, manifest: strays counted again later
        for (int round = 0; round < rounds; round++) {
            for (String[] run : new String[][] {{S3_BUCKET, "Stork"}, {SWIFT_BUCKET, "Stork"},
                    {S3_BUCKET, "classic"}, {SWIFT_BUCKET, "classic"},
                    {round % 2 == 0 ? S3_BUCKET : SWIFT_BUCKET, "RDD old API"},
                    {round % 2 == 0 ? SWIFT_BUCKET : S3_BUCKET, "RDD new API"}}) {
                String bucket = run[0];
                spark.conf().set("spark.sql.sources.commitProtocolClass", run[1].equals("Stork")
                        ? FaultyCommitProtocol.class.getName() : FaultyClassicCommitProtocol.class.getName());
                bindRddCommitters(run[1].startsWith("RDD"));
                long seed = System.nanoTime() ^ round;
                for (int p = 0; p < PARTITIONS; p++) {
                    injected.merge(FaultPlan.faultOf(seed, p), 1, Integer::sum);
                }
                StorkFileSystem fs = SparkOnLocalStore.fileSystem(spark, bucket);
                String path = "stork://" + bucket + "/round-" + round + "-" + UUID.randomUUID().toString().substring(0, 6);
                spark.sparkContext().setLocalProperty(FaultPlan.SEED_PROPERTY, Long.toString(seed));
                String api = (bucket.equals(S3_BUCKET) ? "S3" : "Swift") + " " + run[1] + " protocol";
                io.stork.localstore.AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
                try {
                    var rows = spark.range(0, PARTITIONS * ROWS_PER_PARTITION, 1, PARTITIONS)
                            .mapPartitions(new FaultyRows(), Encoders.STRING());
                    if (run[1].equals("RDD old API")) {
                        rows.javaRDD().saveAsTextFile(path);
                    } else if (run[1].equals("RDD new API")) {
                        rows.javaRDD().mapToPair(line -> new scala.Tuple2<>(org.apache.hadoop.io.NullWritable.get(),
                                new org.apache.hadoop.io.Text(line))).saveAsNewAPIHadoopFile(path,
                                org.apache.hadoop.io.NullWritable.class, org.apache.hadoop.io.Text.class,
                                org.apache.hadoop.mapreduce.lib.output.TextOutputFormat.class,
                                spark.sparkContext().hadoopConfiguration());
                    } else {
                        rows.write().text(path);
                    }
                    jobs++;
                } catch (Exception e) {
                    failures.add(api + " round " + round + " (seed " + seed + "): the job failed: " + e);
                    continue;
                } finally {
                    spark.sparkContext().setLocalProperty(FaultPlan.SEED_PROPERTY, null);
                }
                // The job commit's removal of lost attempts' parts: one full page listing of the dataset
                // (prefix "<dataset>/", no delimiter), and a bulk delete (a successful job deletes nothing else).
                String datasetKey = new Path(path).toUri().getPath().substring(1);
                long lists = window.counts().entries().stream().filter(e -> e.callType() == io.stork.store.CallType.LIST)
                        .map(e -> java.net.URLDecoder.decode(String.valueOf(e.query()), java.nio.charset.StandardCharsets.UTF_8))
                        .filter(q -> !q.contains("delimiter") && (q.contains("max-keys=1000") || q.contains("limit=1000"))
                                && java.util.Arrays.asList(q.split("&")).contains("prefix=" + datasetKey + "/"))
                        .count();
                long deletes = window.counts().calls(io.stork.store.CallType.BULK_DELETE);
                window.close();
                long[] tally = byProtocol.computeIfAbsent(run[1], k -> new long[5]);
                tally[0]++;
                tally[3] += lists;
                tally[4] += deletes;
                List<String> read = spark.read().text(path).as(Encoders.STRING()).collectAsList().stream().sorted().toList();
                Manifest manifest = manifest(fs, path);
                written.add(new Object[] {run[1], fs, bucket, path, manifest});
                Set<Integer> tasks = manifest.parts().stream().map(ManifestPart::task).collect(Collectors.toSet());
                if (!read.equals(expected)) {
                    failures.add(api + " round " + round + " (seed " + seed + "): read " + read.size()
                            + " rows, expected " + expected.size());
                }
                if (manifest.parts().size() != PARTITIONS || tasks.size() != PARTITIONS) {
                    failures.add(api + " round " + round + ": manifest has " + manifest.parts().size()
                            + " parts for tasks " + tasks);
                }
                int left = strayParts(fs, bucket, path, manifest);
                strays += left;
                tally[1] += left;
                System.err.printf("campaign: %s round %d ok=%s, %d stray attempt parts in the store (invisible); "
                        + "full listings of the dataset %d, bulk DELETEs %d%n", api, round, read.equals(expected), left,
                        lists, deletes);
            }
            bindRddCommitters(false);
            // A job that fails for good (every attempt of a task fails) leaves no manifest.
            String bucket = round % 2 == 0 ? S3_BUCKET : SWIFT_BUCKET;
            String doomed = "stork://" + bucket + "/doomed-" + round;
            assertThatThrownBy(() -> spark.range(0, 100, 1, 2).map(
                    (org.apache.spark.api.java.function.MapFunction<Long, String>) id -> {
                        if (id == 75) {
                            throw new IllegalStateException("campaign fault: this task always fails");
                        }
                        return Long.toString(id);
                    }, Encoders.STRING()).write().text(doomed)).hasStackTraceContaining("always fails");
            if (SparkOnLocalStore.fileSystem(spark, bucket).exists(new Path(doomed, PartNames.MANIFEST))) {
                failures.add("round " + round + ": a failed job left a manifest");
            }
        }
        // Later, once every losing attempt has ended one way or another (the stalled ones sleep 10 s).
        Thread.sleep(12_000);
        for (Object[] w : written) {
            byProtocol.get((String) w[0])[2] += strayParts((StorkFileSystem) w[1], (String) w[2], (String) w[3],
                    (Manifest) w[4]);
        }
        System.err.printf("campaign tally: %d rounds per API, %d jobs committed, faults injected %s; scheduler: "
                + "%d speculative attempts, %d failed or killed attempts, %d executors lost; %d stray attempt "
                + "parts left in the store (none visible); %d failures%n", rounds, jobs, injected,
                EVENTS.speculativeLaunches.get(), EVENTS.failedAttempts.get(), EVENTS.executorsLost.get(), strays,
                failures.size());
        byProtocol.forEach((protocol, t) -> System.err.printf("campaign strays, %s protocol: %d jobs; stray parts "
                + "right after the jobs %d, 12 s after the last job %d; full listings of the dataset during the jobs "
                + "%d, bulk DELETEs %d%s%n", protocol, t[0], t[1], t[2], t[3], t[4], protocol.equals("classic")
                ? " (the classic emulation's own listing and deletes: its lost attempts are not removed at commit)"
                : " (the job commit's removal of lost attempts' parts)"));
        for (String failure : failures) {
            System.err.println("campaign FAILURE: " + failure);
        }
        assertThat(failures).isEmpty();
        assertThat(jobs).isEqualTo(6 * rounds);
        assertThat(EVENTS.executorsLost.get()).as("executors killed mid-job").isPositive();
        assertThat(EVENTS.speculativeLaunches.get()).as("speculative attempts").isPositive();
    }
}
