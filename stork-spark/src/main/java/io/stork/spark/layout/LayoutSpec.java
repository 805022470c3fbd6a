package io.stork.spark.layout;

import io.stork.layout.grid.GridBuilder;
import io.stork.layout.history.QueryHistory;
import io.stork.layout.kdtree.KdTreeBuilder;
import io.stork.layout.model.HistorySummary;
import io.stork.layout.model.PartitionerModel;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * How to lay out a DataFrame: the kind of model (k-d tree over any key columns, or a latitude/longitude
 * grid), its buckets, the sample it is built from, the query history that steers it, and whether rows are
 * sorted by key within each bucket. Immutable; each {@code with...} returns a new spec.
 * <pre>{@code
 * LaidOut out = LayoutSpec.kdTree(List.of("lat", "lon"), 16).sampleRows(50_000).layOut(df);
 * out.rows().write().parquet("stork://b/t");
 * out.saveModel("stork://b/t");     // <dataset>/_stork/layout/model.json, one PUT
 * }</pre>
 */
public final class LayoutSpec {

    /** Rows sampled to build a model, unless {@link #sampleRows(int)} says otherwise. */
    public static final int DEFAULT_SAMPLE_ROWS = 100_000;
    public static final Duration DEFAULT_HALF_LIFE = Duration.ofDays(7);

    private enum Kind { KDTREE, GRID }

    private final Kind kind;
    private final List<String> columns;
    private final int buckets;
    private final int precision;
    private final int sampleRows;
    private final long seed;
    private final QueryHistory history;
    private final Duration halfLife;
    private final boolean sort;

    private LayoutSpec(Kind kind, List<String> columns, int buckets, int precision, int sampleRows, long seed,
                       QueryHistory history, Duration halfLife, boolean sort) {
        if (buckets < 1) {
            throw new IllegalArgumentException("a layout needs at least one bucket, not " + buckets);
        }
        if (sampleRows < 1) {
            throw new IllegalArgumentException("a layout's sample needs at least one row, not " + sampleRows);
        }
        if (columns == null || columns.isEmpty()) {
            throw new IllegalArgumentException("a layout needs at least one key column");
        }
        this.kind = kind;
        this.columns = List.copyOf(columns);
        this.buckets = buckets;
        this.precision = precision;
        this.sampleRows = sampleRows;
        this.seed = seed;
        this.history = history;
        this.halfLife = halfLife;
        this.sort = sort;
    }

    /** A k-d tree over {@code columns} with {@code buckets} buckets (round-robin splits without history). */
    public static LayoutSpec kdTree(List<String> columns, int buckets) {
        return new LayoutSpec(Kind.KDTREE, columns, buckets, 0, DEFAULT_SAMPLE_ROWS, 0, QueryHistory.empty(),
                DEFAULT_HALF_LIFE, true);
    }

    /** A grid of cells of 10^-precision degree along a Hilbert curve, cut into {@code buckets} runs. */
    public static LayoutSpec grid(String latColumn, String lonColumn, int precision, int buckets) {
        return new LayoutSpec(Kind.GRID, List.of(latColumn, lonColumn), buckets, precision, DEFAULT_SAMPLE_ROWS, 0,
                QueryHistory.empty(), DEFAULT_HALF_LIFE, true);
    }

    /** At most this many rows are sampled (on the driver) to build the model. */
    public LayoutSpec sampleRows(int rows) {
        return new LayoutSpec(kind, columns, buckets, precision, rows, seed, history, halfLife, sort);
    }

    /** The sample's seed (0 unless given): the same data and seed build the same model. */
    public LayoutSpec seed(long seed) {
        return new LayoutSpec(kind, columns, buckets, precision, sampleRows, seed, history, halfLife, sort);
    }

    /**
     * Past queries steer a k-d tree's splits (a query {@code halfLife} old weighs half); a grid only keeps
     * the history's summary in its model.
     */
    public LayoutSpec history(QueryHistory history, Duration halfLife) {
        if (history == null || halfLife == null || halfLife.isNegative() || halfLife.isZero()) {
            throw new IllegalArgumentException("a history needs queries (possibly none) and a positive half-life");
        }
        return new LayoutSpec(kind, columns, buckets, precision, sampleRows, seed, history, halfLife, sort);
    }

    /** Sort rows by key within each bucket (default on: tighter min/max per page and row group). */
    public LayoutSpec sortWithinBuckets(boolean sort) {
        return new LayoutSpec(kind, columns, buckets, precision, sampleRows, seed, history, halfLife, sort);
    }

    /** The same spec with {@code buckets} buckets. */
    public LayoutSpec buckets(int buckets) {
        return new LayoutSpec(kind, columns, buckets, precision, sampleRows, seed, history, halfLife, sort);
    }

    /** Whether a query history was given ({@link #history}). */
    public boolean hasHistory() {
        return !history.isEmpty();
    }

    public boolean sortsWithinBuckets() {
        return sort;
    }

    public int buckets() {
        return buckets;
    }

    /** Builds a model from a sample of {@code df} (a count and a sampled collect of the key columns). */
    public PartitionerModel buildModel(Dataset<Row> df) {
        KeyColumns key = KeyColumns.resolve(df.schema(), columns);
        List<Object[]> sample = sample(df, key);
        long now = System.currentTimeMillis();
        return switch (kind) {
            case KDTREE -> {
                KdTreeBuilder builder = KdTreeBuilder.of(key.columns(), buckets);
                yield (history.isEmpty() ? builder : builder.withHistory(history, halfLife, now)).build(sample);
            }
            case GRID -> {
                HistorySummary summary = history.isEmpty() ? HistorySummary.NONE
                        : history.summary(now, halfLife.toMillis());
                yield GridBuilder.of(key.names().get(0), key.names().get(1), precision, buckets).history(summary)
                        .build(sample);
            }
        };
    }

    /** A new model from a sample of {@code df}, and {@code df} laid out by it. */
    public LaidOut layOut(Dataset<Row> df) {
        PartitionerModel model = buildModel(df);
        return new LaidOut(BucketRouting.route(df, model, sort), model);
    }

    /**
     * As {@link #layOut(Dataset)}, with as many buckets as make objects of about {@code targetBytes}: the size
     * is Spark's estimate of {@code df} (for a file source, its files' bytes; a relayout knows its parts'
     * bytes exactly, see {@link Relayout#targetObjectBytes}).
     */
    public LaidOut layOut(Dataset<Row> df, long targetBytes) {
        if (targetBytes < 1) {
            throw new IllegalArgumentException("a target object size must be positive, not " + targetBytes);
        }
        java.math.BigInteger size = df.queryExecution().optimizedPlan().stats().sizeInBytes().bigInteger();
        long n = size.add(java.math.BigInteger.valueOf(targetBytes - 1)).divide(java.math.BigInteger.valueOf(targetBytes))
                .min(java.math.BigInteger.valueOf(1 << 20)).longValue();
        return buckets((int) Math.max(1, n)).layOut(df);
    }

    /**
     * {@code df} laid out by the model saved beside {@code datasetPath} (one GET), so that a later batch lands
     * in the same buckets as the earlier ones; a new model when the dataset has none (save it with
     * {@link LaidOut#saveModel}). A saved model over other columns fails on one line: rebuild with
     * {@link #layOut}.
     */
    public LaidOut layOutReusing(Dataset<Row> df, String datasetPath) throws IOException {
        Optional<PartitionerModel> saved = StorkLayouts.find(df.sparkSession(), datasetPath);
        if (saved.isEmpty()) {
            return layOut(df);
        }
        PartitionerModel model = saved.get();
        List<String> names = model.columns().stream().map(c -> c.name()).toList();
        if (!names.equals(KeyColumns.resolve(df.schema(), columns).names())) {
            throw new IllegalArgumentException("the layout model saved at " + datasetPath + " is over " + names
                    + ", not " + columns + "; rebuild it (layOut) to change the key");
        }
        return new LaidOut(BucketRouting.route(df, model, sort), model);
    }

    private List<Object[]> sample(Dataset<Row> df, KeyColumns key) {
        Dataset<Row> keys = df.selectExpr(key.names().stream().map(LayoutSpec::quoted).toArray(String[]::new));
        long count = keys.count();
        if (count == 0) {
            throw new IllegalArgumentException("the DataFrame is empty: a layout is built from a sample of its rows");
        }
        double fraction = Math.min(1.0, 1.1 * sampleRows / count);
        List<Row> rows = (fraction >= 1.0 ? keys : keys.sample(false, fraction, seed)).limit(sampleRows)
                .collectAsList();
        if (rows.isEmpty()) {
            rows = keys.limit(sampleRows).collectAsList();
        }
        KeyColumns sampled = KeyColumns.resolve(keys.schema(), key.names());
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            out.add(sampled.key(r));
        }
        return out;
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
