package io.stork.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.spark.layout.LaidOut;
import io.stork.spark.layout.StorkLayouts;
import io.stork.store.CallType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code inspect} and {@code stats} show how well a dataset's parts separate: the same GridPocket-style
 * readings laid out by a k-d tree on (lat, lon) into 16 buckets and written in arrival order (time-major,
 * 16 slices), both through Stork to the local store. The printed overlap of the (lat, lon) boxes is what
 * the objects' own rows give (each object's min/max read back with Spark, areas counted here), near 1 for
 * the laid-out dataset and near 16 for the other; and the tool reads no more than the manifest and
 * the model (counted at the store's access log).
 */
class LayoutSeparationStoreTest {

    private static final String BUCKET = "it-separation-" + UUID.randomUUID().toString().substring(0, 6);
    private static final StructType SCHEMA = StructType.fromDDL("date BIGINT, `index` DOUBLE, sumHC DOUBLE, "
            + "sumHP DOUBLE, type STRING, vid BIGINT, size BIGINT, temp DOUBLE, city STRING, region BIGINT, "
            + "lat DOUBLE, lon DOUBLE");
    private static final GridPocketGenerator DATA = new GridPocketGenerator(42, 500, 1_767_225_600L, 8);
    private static final int BUCKETS = 16;

    private static SparkSession spark;

    @BeforeAll
    static void startSpark() throws Exception {
        spark = SparkOnLocalStore.builder("stork-layout-separation", BUCKET, BUCKET + "-unused")
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history (once merged with its capture) written when the session stops, not inside a
                // counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
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
    void theLaidOutDatasetsBoxesSeparateAndArrivalOrdersOverlap() throws Exception {
        String laid = "stork://" + BUCKET + "/laid-out";
        String plain = "stork://" + BUCKET + "/arrival";
        LaidOut out = StorkLayouts.kdTree(frame(4), List.of("lat", "lon"), BUCKETS);
        out.rows().write().parquet(laid);
        out.saveModel(laid);
        frame(BUCKETS).write().parquet(plain);

        double laidExpected = overlapOfObjects(laid);
        double plainExpected = overlapOfObjects(plain);

        String inspect = tool(Map.of(CallType.LIST, 1L, CallType.GET, 2L), "inspect", laid);
        assertThat(inspect).contains("  layout: kdtree over (lat double, lon double), 16 buckets, built without "
                + "query history\n");
        double laidShown = number(inspect, "separation over \\(lat, lon\\): a point lies in ([0-9.]+) of 16 parts' "
                + "boxes on average \\(1 = disjoint\\), a box spans [0-9.]+% of the extent; 0 parts without min/max\n"
                + "    per column: lat [0-9.]+ \\(spans [0-9.]+%\\), lon [0-9.]+ \\(spans [0-9.]+%\\)\n");
        assertThat(shown(laidShown)).isEqualTo(shown(laidExpected));

        // stats looks for the model (one GET more); with the columns named, it reads the manifest alone.
        String statsLaid = tool(Map.of(CallType.GET, 2L), "stats", laid);
        assertThat(statsLaid).contains("separation over (lat, lon), the layout's key columns: 16 of 16 parts");
        assertThat(number(statsLaid, "\nbox \\(lat, lon\\)\\s+16\\s+([0-9.]+)\\s")).isEqualTo(laidShown);
        String statsPlain = tool(Map.of(CallType.GET, 1L), "stats", plain, "lat", "lon");
        assertThat(statsPlain).contains("separation over (lat, lon), the columns named: 16 of 16 parts");
        double plainShown = number(statsPlain, "\nbox \\(lat, lon\\)\\s+16\\s+([0-9.]+)\\s");
        assertThat(shown(plainShown)).isEqualTo(shown(plainExpected));
        assertThat(tool(Map.of(CallType.GET, 2L), "stats", plain)).as("no model: each column on its own")
                .contains("separation per column, each column with min/max (16 parts)").doesNotContain("box (");

        System.err.printf(Locale.ROOT, "LayoutSeparationStoreTest: (lat, lon) boxes overlap %.2f laid out by a k-d "
                + "tree, %.2f in arrival order (of %d parts)%n", laidShown, plainShown, BUCKETS);
        assertThat(laidShown).as("laid out: near disjoint").isLessThan(1.25);
        assertThat(plainShown).as("arrival order: every part spans the map").isGreaterThan(BUCKETS / 2.0)
                .isGreaterThan(4 * laidShown);
    }

    /** The readings in arrival order (time-major), in {@code partitions} contiguous slices. */
    private static Dataset<Row> frame(int partitions) {
        List<Row> rows = DATA.readingList().stream().map(r -> RowFactory.create(r.toRow())).toList();
        return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows,
                partitions), SCHEMA);
    }

    /**
     * The (lat, lon) overlap the objects' own rows give: each object's min and max read back with Spark, the
     * map cut into cells at every bound, and each cell's area counted once per box holding it, over the area
     * some box holds.
     */
    private static double overlapOfObjects(String path) {
        List<Row> boxes = spark.read().parquet(path).groupBy(functions.input_file_name())
                .agg(functions.min("lat"), functions.max("lat"), functions.min("lon"), functions.max("lon"))
                .collectAsList();
        assertThat(boxes).hasSize(BUCKETS);
        List<List<Double>> cuts = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            TreeSet<Double> distinct = new TreeSet<>();
            for (Row box : boxes) {
                distinct.add(box.getDouble(1 + 2 * c));
                distinct.add(box.getDouble(2 + 2 * c));
            }
            cuts.add(new ArrayList<>(distinct));
        }
        double covered = 0;
        double total = 0;
        for (int x = 0; x + 1 < cuts.get(0).size(); x++) {
            for (int y = 0; y + 1 < cuts.get(1).size(); y++) {
                double lat = (cuts.get(0).get(x) + cuts.get(0).get(x + 1)) / 2; // the cell's centre
                double lon = (cuts.get(1).get(y) + cuts.get(1).get(y + 1)) / 2;
                int depth = 0;
                for (Row box : boxes) {
                    depth += box.getDouble(1) <= lat && lat <= box.getDouble(2) && box.getDouble(3) <= lon
                            && lon <= box.getDouble(4) ? 1 : 0;
                }
                double area = (cuts.get(0).get(x + 1) - cuts.get(0).get(x)) * (cuts.get(1).get(y + 1) - cuts.get(1).get(y));
                covered += depth > 0 ? area : 0;
                total += depth * area;
            }
        }
        return total / covered;
    }

    private static String shown(double overlap) {
        return String.format(Locale.ROOT, "%.2f", overlap);
    }

    private static double number(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        assertThat(m.find()).as("%s in:%n%s", regex, out).isTrue();
        return Double.parseDouble(m.group(1));
    }

    /** The dataset tool's output, asserting the calls it made at the store. */
    private static String tool(Map<CallType, Long> calls, String... args) throws Exception {
        List<String> all = new ArrayList<>();
        for (Map.Entry<String, String> e : spark.sparkContext().hadoopConfiguration()) {
            if (e.getKey().startsWith("fs.stork.bucket.")) {
                all.add("-D" + e.getKey() + "=" + e.getValue());
            }
        }
        all.addAll(List.of(args));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        int status;
        try {
            status = io.stork.commit.DatasetToolAccess.run(all.toArray(new String[0]));
        } finally {
            System.setOut(stdout);
        }
        String out = printed.toString(StandardCharsets.UTF_8);
        System.err.print(out);
        assertThat(status).isZero();
        assertThat(window.counts().byType()).as(String.join(" ", args)).isEqualTo(calls);
        return out;
    }
}
