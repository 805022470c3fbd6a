package io.stork.spark.layout;

import io.stork.commit.DatasetFiles;
import io.stork.layout.history.QueryHistory;
import io.stork.layout.json.ModelJson;
import io.stork.layout.model.PartitionerModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * The layout as a write option (docs/layouts.md, "As a write option"):
 * <pre>{@code
 * df.write().option("stork.layout", "kdtree").option("stork.layout.columns", "lat,lon")
 *   .option("stork.layout.targetObjectSize", "128m").parquet("stork://b/events");
 * }</pre>
 * The write's query is replaced by the same rows laid out (the routing of {@link BucketRouting}, inside the
 * write's plan), the dataset's skipping settings get the layout's ({@link LaidOut#writeOptions}), and the
 * model is kept beside the dataset once the commit succeeded. {@code stork.layout=saved} lays a later batch
 * out by the model saved with the dataset.
 */
public final class LayoutWriteOption {

    public static final String LAYOUT = "stork.layout";
    public static final String COLUMNS = "stork.layout.columns";
    public static final String BUCKETS = "stork.layout.buckets";
    public static final String TARGET_OBJECT_SIZE = "stork.layout.targetObjectSize";
    public static final String PRECISION = "stork.layout.precision";
    public static final String HISTORY = "stork.layout.history";
    public static final String SAMPLE_ROWS = "stork.layout.sampleRows";

    /** The write's query laid out, and the options to set on the write (the layout's own are dropped). */
    public record Rewritten(LogicalPlan query, Map<String, String> options) {
    }

    private LayoutWriteOption() {
    }

    /** Empty when the options ask for no layout; one-line IllegalArgumentException for a bad one. */
    public static Optional<Rewritten> apply(SparkSession session, Path output, LogicalPlan query,
                                            Map<String, String> writeOptions) {
        Map<String, String> options = new LinkedHashMap<>();
        writeOptions.forEach((k, v) -> options.put(k.toLowerCase(Locale.ROOT), v));
        String kind = options.get(LAYOUT);
        if (kind == null || kind.isBlank()) {
            return Optional.empty();
        }
        Dataset<Row> rows = org.apache.spark.sql.classic.Dataset.ofRows(
                (org.apache.spark.sql.classic.SparkSession) session, query);
        String dataset = output.toString();
        LaidOut laid;
        try {
            laid = switch (kind.trim().toLowerCase(Locale.ROOT)) {
                case "kdtree", "grid" -> fresh(session, dataset, rows, kind.trim().toLowerCase(Locale.ROOT), options);
                case "saved" -> {
                    PartitionerModel model = StorkLayouts.find(session, dataset).orElseThrow(() ->
                            new IllegalArgumentException(LAYOUT + "=saved: no layout model is saved with " + dataset
                                    + " (write with " + LAYOUT + "=kdtree or grid first)"));
                    yield new LaidOut(StorkLayouts.layOut(rows, model), model);
                }
                default -> throw new IllegalArgumentException(LAYOUT + " must be kdtree, grid or saved, not '" + kind
                        + "'");
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> set = new LinkedHashMap<>();
        writeOptions.forEach((k, v) -> {
            if (!k.toLowerCase(Locale.ROOT).startsWith(LAYOUT)) {
                set.put(k, v);
            }
        });
        laid.writeOptions().forEach(set::putIfAbsent);
        set.put(DatasetFiles.optionKey("layout/model.json"), ModelJson.write(laid.model()));
        return Optional.of(new Rewritten(((org.apache.spark.sql.classic.Dataset<Row>) laid.rows()).logicalPlan(), set));
    }

    private static LaidOut fresh(SparkSession session, String dataset, Dataset<Row> rows, String kind,
                                 Map<String, String> options) throws IOException {
        String columns = required(options, COLUMNS.toLowerCase(Locale.ROOT), COLUMNS);
        List<String> names = Arrays.stream(columns.split(",")).map(String::trim).toList();
        String buckets = options.get(BUCKETS.toLowerCase(Locale.ROOT));
        String target = options.get(TARGET_OBJECT_SIZE.toLowerCase(Locale.ROOT));
        if ((buckets == null) == (target == null)) {
            throw new IllegalArgumentException("a layout write gives one of " + BUCKETS + " and " + TARGET_OBJECT_SIZE);
        }
        int n = buckets == null ? 1 : whole(buckets, BUCKETS);
        LayoutSpec spec;
        if (kind.equals("grid")) {
            if (names.size() != 2) {
                throw new IllegalArgumentException(COLUMNS + " of a grid is lat,lon, not '" + columns + "'");
            }
            int precision = whole(options.getOrDefault(PRECISION.toLowerCase(Locale.ROOT), "1"), PRECISION);
            spec = LayoutSpec.grid(names.get(0), names.get(1), precision, n);
        } else {
            spec = LayoutSpec.kdTree(names, n);
        }
        String sample = options.get(SAMPLE_ROWS.toLowerCase(Locale.ROOT));
        if (sample != null) {
            spec = spec.sampleRows(whole(sample, SAMPLE_ROWS));
        }
        if (Boolean.parseBoolean(options.getOrDefault(HISTORY.toLowerCase(Locale.ROOT), "true").trim())) {
            QueryHistory history = StorkLayouts.history(session, dataset);
            if (!history.isEmpty()) {
                spec = spec.history(history, LayoutSpec.DEFAULT_HALF_LIFE);
            }
        }
        return target == null ? spec.layOut(rows) : spec.layOut(rows, RelayoutCommand.bytes(target));
    }

    private static String required(Map<String, String> options, String key, String name) {
        String v = options.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("a layout write needs " + name + " (e.g. lat,lon)");
        }
        return v;
    }

    private static int whole(String v, String name) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " takes a whole number, at least 1, not '" + v + "'");
    }
}
