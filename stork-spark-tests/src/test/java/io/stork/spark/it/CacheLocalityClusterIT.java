package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import io.stork.spark.skipping.SkippingRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Soft affinity measured across hosts (docs/block-cache.md#locality): a standalone cluster on loopback, three
 * workers on addresses of their own (127.0.0.2-4), one single-core executor each, each with a block cache of
 * its own (a relative cache directory resolves in the executor's working directory). A dataset of twelve
 * parts is scanned again and again; which part objects the store sends bytes for (200/206, a cache miss on
 * the executor that read it) is counted at the store per scan. A range's hosts are where its task runs, so
 * a part is fetched at most once per host its range names, whatever the scheduling: with one host per range
 * (the default) every scan after the first is served from the executors' caches.
 */
class CacheLocalityClusterIT {

    private static final String BUCKET = "it-locality-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String SWIFT_BUCKET = "it-locality-sw-" + UUID.randomUUID().toString().substring(0, 6);
    private static final int PARTS = 12;
    private static final int ROWS_PER_PART = 20_000;
    private static final int SCANS = 4;
    private static SparkSession spark;
    private static LoopbackStandaloneCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        LocalStore.shared();
        cluster = new LoopbackStandaloneCluster(3, 1, 1024);
        spark = cluster.session(SparkOnLocalStore.builder("stork-cache-locality", BUCKET, SWIFT_BUCKET), "600m")
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not inside a counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .config("spark.hadoop.fs.stork.bucket." + BUCKET + ".cache.enabled", "true")
                // Relative: each executor's own working directory, so each host has a cache of its own.
                .config("spark.hadoop.fs.stork.bucket." + BUCKET + ".cache.directory", "stork-block-cache")
                // Long enough that a task never gives up its host while the host finishes another.
                .config("spark.locality.wait", "60s")
                // One part per task: Spark packs small files into one task whatever their locations (a task
                // goes to the host holding most of its bytes), which would blur what is measured here.
                .config("spark.sql.files.openCostInBytes", Long.toString(128L << 20))
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, BUCKET, SWIFT_BUCKET);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (spark.sparkContext().statusTracker().getExecutorInfos().length < 4) { // three and the driver
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("three executors did not register within a minute");
            }
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stopCluster() {
        if (spark != null) {
            spark.stop();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String write(String name) {
        String path = "stork://" + BUCKET + "/" + name;
        spark.range(0, (long) PARTS * ROWS_PER_PART, 1, PARTS)
                .selectExpr("concat('row-', CAST(id AS STRING), '-', repeat('x', 40)) AS value")
                .write().text(path);
        return path;
    }

    /** Per scan, the parts the store sent bytes for (by object name, with repeats). */
    private static List<Map<String, Integer>> scans(String path) {
        String dataset = path.substring(path.lastIndexOf('/') + 1);
        List<Map<String, Integer>> fetched = new ArrayList<>();
        for (int scan = 0; scan < SCANS; scan++) {
            AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
            assertThat(spark.read().text(path).count()).isEqualTo((long) PARTS * ROWS_PER_PART);
            Map<String, Integer> parts = new HashMap<>();
            for (AccessLogEntry e : window.counts().entries()) {
                if (e.method().equals("GET") && (e.status() == 200 || e.status() == 206)
                        && e.path().contains("/" + dataset + "/part-")) {
                    parts.merge(e.path().substring(e.path().lastIndexOf('/') + 1), 1, Integer::sum);
                }
            }
            fetched.add(parts);
        }
        System.out.println("parts fetched per scan, " + dataset + ": " + fetched.stream().map(Map::size).toList());
        return fetched;
    }

    @Test
    void withOneHostPerRangeEveryScanAfterTheFirstIsServedFromTheExecutorsCaches() {
        spark.conf().set(SkippingRule.AFFINITY_HOSTS, "1");
        try {
            List<Map<String, Integer>> fetched = scans(write("one-host"));
            assertThat(fetched.get(0)).hasSize(PARTS);
            for (int scan = 1; scan < SCANS; scan++) {
                assertThat(fetched.get(scan)).as("scan %d", scan + 1).isEmpty();
            }
        } finally {
            spark.conf().unset(SkippingRule.AFFINITY_HOSTS);
        }
    }

    @Test
    void withTwoHostsPerRangeAPartIsFetchedAtMostTwice() {
        spark.conf().set(SkippingRule.AFFINITY_HOSTS, "2");
        List<Map<String, Integer>> fetched;
        try {
            fetched = scans(write("two-hosts"));
        } finally {
            spark.conf().unset(SkippingRule.AFFINITY_HOSTS);
        }
        assertThat(fetched.get(0)).hasSize(PARTS);
        Map<String, Integer> total = new HashMap<>();
        fetched.forEach(scan -> scan.keySet().forEach(part -> total.merge(part, 1, Integer::sum)));
        assertThat(total).hasSize(PARTS);
        assertThat(total.values()).allSatisfy(times -> assertThat(times).isLessThanOrEqualTo(2));
    }

    @Test
    void withoutAffinityTasksGoWhereverAndFetchAgain() {
        // Not asserted beyond the first scan: where Spark puts tasks without preferences depends on timing.
        // Printed for docs/block-cache.md, beside the two tests above.
        spark.conf().set(SkippingRule.AFFINITY, "false");
        try {
            List<Map<String, Integer>> fetched = scans(write("no-affinity"));
            assertThat(fetched.get(0)).hasSize(PARTS);
        } finally {
            spark.conf().unset(SkippingRule.AFFINITY);
        }
    }
}
