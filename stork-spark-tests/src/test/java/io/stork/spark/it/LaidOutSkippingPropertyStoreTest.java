package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.spark.layout.LaidOut;
import io.stork.spark.layout.LayoutSpec;
import io.stork.spark.layout.StorkLayouts;
import io.stork.spark.skipping.DataSkipping;
import io.stork.spark.skipping.ScanReport;
import io.stork.spark.skipping.SkippingRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Skipping over laid-out datasets: {@link DataSkippingPropertyStoreTest}'s random rows laid out by a k-d
 * tree over (ts, d, s), by a k-d tree over (s, i), and by a grid over (lat, lon) (doubles derived from i
 * and m), written through Stork with statistics beside the same rows in arrival order, and its random
 * predicates over them: every query returns exactly the rows of the same query with skipping off (over the
 * laid-out dataset read once with skipping off), and of the arrival-order dataset; on selective predicates (at most a tenth of the rows) the laid-out datasets
 * open no more objects in all than the arrival-order ones. Sizes: {@code -Dstork.layout.rows} per dataset
 * (default 600), {@code -Dstork.layout.queries} per dataset (default 25), {@code -Dstork.layout.seed}.
 */
class LaidOutSkippingPropertyStoreTest {

    private static final String BUCKET = "it-laidprop-" + UUID.randomUUID().toString().substring(0, 6);
    private static final String[] ZONES = {"UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham"};

    private static SparkSession spark;

    /** One laid-out dataset: how it is laid out, in which format, into how many buckets. */
    private record Layout(String name, String format, int buckets, Function<Dataset<Row>, LaidOut> layOut) {
    }

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-laid-out-property", BUCKET, BUCKET + "-unused")
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history (once merged with its capture) written when the session stops, not inside a
                // counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .config("spark.sql.datetime.java8API.enabled", "true")
                .getOrCreate();
        SparkOnLocalStore.createBuckets(spark, BUCKET);
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void laidOutDatasetsReturnTheRowsOfEveryQueryAndOpenNoMoreObjects() throws Exception {
        int count = Integer.getInteger("stork.layout.rows", 600);
        int queries = Integer.getInteger("stork.layout.queries", 25);
        long seed = Long.getLong("stork.layout.seed", 20261126L);
        Random random = new Random(seed);
        List<Layout> layouts = List.of(
                new Layout("kdtree-ts-d-s", "parquet", 8, df -> StorkLayouts.kdTree(df, List.of("ts", "d", "s"), 8)),
                new Layout("kdtree-s-i", "json", 6, df -> LayoutSpec.kdTree(List.of("s", "i"), 6).seed(seed)
                        .layOut(df)),
                new Layout("grid-lat-lon", "parquet", 8, df -> StorkLayouts.grid(df, "lat", "lon", 0, 8)));
        List<String> columns = new ArrayList<>(RandomQueries.COLUMNS);
        columns.addAll(List.of("lat", "lon"));
        long started = System.nanoTime();
        long[] laidRead = new long[2]; // all queries, selective ones
        long[] plainRead = new long[2];
        int selective = 0;
        int run = 0;
        for (Layout layout : layouts) {
            spark.conf().set("spark.sql.session.timeZone", RandomQueries.pick(random, ZONES));
            Dataset<Row> data = spark.createDataFrame(RandomQueries.rows(random, count, false), RandomQueries.SCHEMA)
                    .withColumn("lat", functions.expr("CAST(i AS DOUBLE) * 0.8"))
                    .withColumn("lon", functions.expr("CAST(m AS DOUBLE) / 8"));
            String laid = "stork://" + BUCKET + "/" + layout.name();
            String plain = laid + "-arrival";
            LaidOut out = layout.layOut().apply(data);
            out.rows().write().format(layout.format()).save(laid);
            out.saveModel(laid);
            data.repartition(layout.buckets()).write().format(layout.format()).save(plain);
            System.err.printf(Locale.ROOT, "%s: laid out and written at %.1f s%n", layout.name(),
                    (System.nanoTime() - started) / 1e9);

            spark.conf().set("spark.sql.session.timeZone", RandomQueries.pick(random, ZONES));
            StructType schema = data.schema();
            // The laid-out dataset read once with skipping off and held in memory: the reference every query
            // with skipping off is answered from (a cached read would serve the queries under test too).
            List<Row> values = withoutSkipping(() -> read(layout.format(), laid, schema).collectAsList());
            assertThat(RandomQueries.sorted(values)).as(layout.name() + ": the rows read back")
                    .isEqualTo(RandomQueries.sorted(withoutSkipping(() -> read(layout.format(), plain, schema)
                            .collectAsList())));
            Dataset<Row> reference = spark.createDataFrame(values, schema);
            RandomQueries generator = new RandomQueries(random, columns, true);
            for (int q = 0; q < queries; q++, run++) {
                String filter = generator.predicate(values, 3);
                Dataset<Row> onLaid = read(layout.format(), laid, schema).where(filter);
                List<Row> got = RandomQueries.sorted(onLaid.collectAsList());
                Dataset<Row> onPlain = read(layout.format(), plain, schema).where(filter);
                List<Row> gotPlain = RandomQueries.sorted(onPlain.collectAsList());
                List<Row> expected = RandomQueries.sorted(reference.where(filter).collectAsList());
                String what = String.format("%s (%s), query %d: %s", layout.name(), layout.format(), q, filter);
                if (!got.equals(expected)) {
                    // As DataSkippingPropertyStoreTest: the format's own push-down may differ from the rows in
                    // memory on its own; the property is that skipping changes nothing.
                    expected = RandomQueries.sorted(withoutSkipping(() -> read(layout.format(), laid, schema)
                            .where(filter).collectAsList()));
                    System.err.printf("%s: the format's reader alone returns other rows than the data holds%n", what);
                }
                assertThat(got).as(what).isEqualTo(expected);
                assertThat(gotPlain).as(what + " on the arrival-order dataset").isEqualTo(expected);
                long onLaidRead = objectsRead(onLaid);
                long onPlainRead = objectsRead(onPlain);
                laidRead[0] += onLaidRead;
                plainRead[0] += onPlainRead;
                if (expected.size() <= count / 10) {
                    selective++;
                    laidRead[1] += onLaidRead;
                    plainRead[1] += onPlainRead;
                }
            }
        }
        spark.conf().unset("spark.sql.session.timeZone");
        System.err.printf(Locale.ROOT, "laid-out skipping property: %d queries, objects read: laid out %d, arrival "
                + "order %d; on %d selective queries, laid out %d, arrival order %d (%.1f s)%n", run, laidRead[0],
                plainRead[0], selective, laidRead[1], plainRead[1], (System.nanoTime() - started) / 1e9);
        assertThat(selective).as("selective queries").isGreaterThan(run / 10);
        assertThat(laidRead[1]).as("objects the selective queries open, laid out against arrival order")
                .isLessThanOrEqualTo(plainRead[1]);
    }

    private static long objectsRead(Dataset<Row> ran) {
        return DataSkipping.reports(ran).stream().mapToLong(ScanReport::objectsRead).sum();
    }

    private interface Read<T> {
        T get() throws Exception;
    }

    private static <T> T withoutSkipping(Read<T> read) throws Exception {
        spark.conf().set(SkippingRule.ENABLED, "false");
        try {
            return read.get();
        } finally {
            spark.conf().unset(SkippingRule.ENABLED);
        }
    }

    private static Dataset<Row> read(String format, String path, StructType schema) {
        var reader = spark.read().format(format);
        return format.equals("parquet") ? reader.load(path) : reader.schema(schema).load(path);
    }
}
