package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshots across processes, against the real store, both APIs: process B (another JVM, its own Spark
 * application) overwrites, appends and overwrites a partition of a dataset in a loop, while this process
 * (A) queries it continuously. Every query of A must return exactly one committed generation's rows (no
 * mix, no failure, although B's overwrites drop the parts A may be reading), and A's first query after B
 * reported a commit must see that commit or a later one. Small by default (6 rounds per API);
 * {@code -Dstork.snapshot.rounds=N} makes it a soak (scripts/snapshot-soak.sh).
 */
class TwoProcessSnapshotStoreTest {

    private static final String S3_BUCKET = "it-snap-s3-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-snap-swift-" + UUID.randomUUID().toString().substring(0, 6);
    private static final int ROUNDS = Integer.getInteger("stork.snapshot.rounds", 6);
    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.start("stork-snapshot-reader", false, S3_BUCKET, SWIFT_BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static Process startWriter(String path) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("-D") && !arg.startsWith("-Dbasedir")) {
                command.add(arg);
            }
        }
        command.add("-Xmx768m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SnapshotWriterMain.class.getName());
        command.add(S3_BUCKET);
        command.add(SWIFT_BUCKET);
        command.add(path);
        command.add(String.valueOf(ROUNDS));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3", "swift"})
    void everyQueryReadsOneGenerationAndSeesEveryCommitThatReturnedBeforeIt(String api) throws Exception {
        String bucket = api.equals("s3") ? S3_BUCKET : SWIFT_BUCKET;
        String path = "stork://" + bucket + "/snapshots-" + UUID.randomUUID().toString().substring(0, 8);
        List<SnapshotSchedule.State> states = SnapshotSchedule.states(ROUNDS);
        AtomicInteger reported = new AtomicInteger();
        // Warm up this reader, so that its queries keep pace with the writer's commits from the start.
        String warm = path + "-warmup";
        spark.range(0, 10, 1, 1).write().parquet(warm);
        for (int i = 0; i < 3; i++) {
            assertThat(spark.read().parquet(warm).count()).isEqualTo(10);
        }
        Process writer = startWriter(path);
        Thread watcher = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("COMMITTED ")) {
                        reported.set(Integer.parseInt(line.substring("COMMITTED ".length()).trim()));
                    }
                }
            } catch (Exception e) {
                // the writer ended
            }
        });
        watcher.start();

        List<String> seen = new ArrayList<>();
        int queries = 0;
        int lastRound = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3 + ROUNDS / 10);
        while ((writer.isAlive() || reported.get() > lastRound) && System.nanoTime() < deadline) {
            int committedBefore = reported.get();
            if (committedBefore == 0) {
                Thread.sleep(200);
                continue;
            }
            Row answer = spark.read().parquet(path).selectExpr("count(*)", "coalesce(sum(id), 0)").first();
            queries++;
            long count = answer.getLong(0);
            long sum = answer.getLong(1);
            SnapshotSchedule.State state = states.stream().filter(s -> s.count() == count && s.sum() == sum)
                    .findFirst().orElse(null);
            assertThat(state).as("query %d saw %d rows summing to %d: not one committed generation", queries, count, sum)
                    .isNotNull();
            assertThat(state.round()).as("query %d started after round %d was committed", queries, committedBefore)
                    .isGreaterThanOrEqualTo(committedBefore);
            lastRound = Math.max(lastRound, state.round());
            seen.add(String.valueOf(state.round()));
        }
        assertThat(writer.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(writer.exitValue()).as("writer process").isZero();
        watcher.join();
        assertThat(reported.get()).isEqualTo(ROUNDS);
        assertThat(lastRound).as("rounds seen by %d queries: %s", queries, seen).isEqualTo(ROUNDS);
        assertThat(seen.stream().distinct().count()).as("distinct rounds seen: %s", seen)
                .isGreaterThanOrEqualTo(ROUNDS / 2);
        System.err.printf("%s: %d queries, rounds seen %s%n", api, queries, seen);
    }
}
