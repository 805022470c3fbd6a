package io.stork.spark.skipping;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.ColumnType;
import io.stork.skipping.ObjectIndex;
import io.stork.skipping.PartStatistics;
import io.stork.skipping.StatisticsCodec;
import io.stork.skipping.Values;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.spi.IndexTypes;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.StructField;

/**
 * {@code index}: statistics for data Stork did not write (a directory of CSV uploaded by another tool, a
 * dataset committed before statistics existed), computed by a Spark job that reads every object once
 * with the given format and options (so the values are those later reads get) and aggregates per object:
 * row count, and per column min/max (strings cut to a prefix, NaN apart), nulls and NaN. Written to
 * {@code <dataset>/_stork/skipping-index.json} ({@link ObjectIndex}), keyed by each object's path, length
 * and ETag: an object changed since is read, never judged by stale statistics. Value lists and bloom
 * filters are gathered only while writing.
 */
public final class IndexCommand {

    /** What an index run did. */
    public record Result(String location, int objects, int indexed, long indexBytes) {
    }

    private IndexCommand() {
    }

    /**
     * {@code spark-submit --class io.stork.spark.skipping.IndexCommand stork-spark-runtime.jar <path> <format>
     * [option=value ...]}: indexes a dataset and prints where the index went.
     */
    public static void main(String[] args) throws IOException {
        try {
            System.out.println(runForTool(args, Map.of()));
        } catch (IllegalArgumentException e) {
            System.err.println("index: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * The {@code index} command of the dataset tool ({@code io.stork.commit.DatasetTool}, through
     * {@link io.stork.spark.tool.IndexToolCommand}, found by the service loader): {@code <path> <format> [option=value ...]}, with the tool's
     * {@code -D} settings as the session's Hadoop settings. Uses the application's session under
     * spark-submit (or a local one when there is none) and stops only a session it started. Returns the
     * line to print; IllegalArgumentException, one line, for bad arguments.
     */
    public static String runForTool(String[] args, Map<String, String> hadoopSettings) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: index <dataset path> <format> [option=value ...]  "
                    + "(e.g. stork://b/logs csv header=true inferSchema=true)");
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not option=value: " + args[i]);
            }
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        return io.stork.spark.ToolSession.run("stork-index", hadoopSettings, spark -> {
            Result result = index(spark, args[0], args[1], options);
            return String.format("indexed %d of %d objects under %s: %s (%,d bytes)", result.indexed(),
                    result.objects(), args[0], result.location(), result.indexBytes());
        });
    }

    /**
     * Indexes the objects under {@code path} read as {@code format} with {@code options} (as for
     * {@code spark.read.format(format).options(options)}, plus {@code stork.skipping.columns},
     * {@code numColumns} and {@code stringPrefix}).
     */
    public static Result index(SparkSession spark, String path, String format, Map<String, String> options)
            throws IOException {
        Path root = new Path(path);
        FileSystem fs = root.getFileSystem(spark.sessionState().newHadoopConf());
        Path qualifiedRoot = fs.makeQualified(root);
        Map<String, LocatedFileStatus> listed = new LinkedHashMap<>();
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(qualifiedRoot, true);
        while (files.hasNext()) {
            LocatedFileStatus file = files.next();
            String relative = relative(qualifiedRoot, file.getPath());
            if (relative != null && !hidden(relative)) {
                listed.put(relative, file);
            }
        }
        Map<String, String> readOptions = new HashMap<>();
        options.forEach((k, v) -> {
            if (!k.startsWith(SkippingSpec.PREFIX)) {
                readOptions.put(k, v);
            }
        });
        Dataset<Row> data = spark.read().format(format).options(readOptions).load(path);
        List<Map.Entry<String, ColumnType>> schema = new ArrayList<>();
        for (StructField field : data.schema().fields()) {
            schema.add(new AbstractMap.SimpleImmutableEntry<>(field.name(), SparkValues.kind(field.dataType())));
        }
        Map<String, String> settings = new HashMap<>(options);
        settings.remove(SkippingSpec.INDEXES); // value lists and blooms are gathered while writing only
        SkippingSpec spec = SkippingSpec.of(schema, settings, IndexTypes.of());
        int prefix = Integer.parseInt(options.getOrDefault(SkippingSpec.STRING_PREFIX, "32").trim());

        List<Column> aggregates = new ArrayList<>();
        aggregates.add(functions.count(functions.lit(1)).as("__rows"));
        for (SkippingSpec.Column c : spec.columns()) {
            Column col = functions.col("`" + c.name().replace("`", "``") + "`");
            boolean floating = data.schema().fields()[c.ordinal()].dataType() instanceof DoubleType
                    || data.schema().fields()[c.ordinal()].dataType() instanceof FloatType;
            Column value = floating ? functions.when(functions.isnan(col), functions.lit(null)).otherwise(col) : col;
            aggregates.add(functions.sum(functions.when(col.isNull(), 1).otherwise(0)).as("__nulls_" + c.ordinal()));
            aggregates.add((floating ? functions.sum(functions.when(functions.isnan(col), 1).otherwise(0))
                    : functions.lit(0L)).as("__nans_" + c.ordinal()));
            aggregates.add(functions.min(value).as("__min_" + c.ordinal()));
            aggregates.add(functions.max(value).as("__max_" + c.ordinal()));
        }
        List<Row> perFile = data.select(functions.col("_metadata.file_path").as("__file"), functions.col("*"))
                .groupBy("__file").agg(aggregates.get(0), aggregates.subList(1, aggregates.size()).toArray(new Column[0]))
                .collectAsList();

        List<ObjectIndex.Entry> entries = new ArrayList<>();
        for (Row row : perFile) {
            String relative = relative(qualifiedRoot, new Path(URI.create(row.getString(0))));
            LocatedFileStatus status = relative == null ? null : listed.get(relative);
            if (status == null) {
                continue; // read but not listed now: changed while indexing, left out (it will be read)
            }
            Map<String, ColumnStatistics> columns = new LinkedHashMap<>();
            for (SkippingSpec.Column c : spec.columns()) {
                int i = c.ordinal();
                Object min = canonical(row.getAs("__min_" + i), c.type());
                Object max = canonical(row.getAs("__max_" + i), c.type());
                boolean cut = false;
                if (c.type() == ColumnType.STRING && min != null) {
                    min = Values.prefix((String) min, prefix);
                    String cutMax = Values.prefix((String) max, prefix);
                    cut = !cutMax.equals(max);
                    max = cutMax;
                }
                columns.put(c.name(), new ColumnStatistics(c.type(), ((Number) row.getAs("__nulls_" + i)).longValue(),
                        ((Number) row.getAs("__nans_" + i)).longValue(), min, max, cut, Map.of()));
            }
            String etag = status instanceof EtagSource source ? source.getEtag() : null;
            entries.add(new ObjectIndex.Entry(relative, status.getLen(), etag,
                    StatisticsCodec.write(new PartStatistics(row.getLong(1), columns))));
        }
        ObjectIndex index = new ObjectIndex(format, entries);
        Path location = new Path(qualifiedRoot, ObjectIndex.LOCATION);
        try (OutputStream out = fs.create(location, true)) {
            index.write(out);
        }
        return new Result(location.toString(), listed.size(), entries.size(), fs.getFileStatus(location).getLen());
    }

    /** A value from a Spark row (external types) as a canonical value of {@code type}. */
    static Object canonical(Object value, ColumnType type) {
        if (value == null) {
            return null;
        }
        Object v;
        if (value instanceof java.sql.Date date) {
            v = date.toLocalDate().toEpochDay();
        } else if (value instanceof LocalDate date) {
            v = date.toEpochDay();
        } else if (value instanceof java.sql.Timestamp ts) {
            v = micros(ts.toInstant());
        } else if (value instanceof Instant instant) {
            v = micros(instant);
        } else if (value instanceof java.time.LocalDateTime local) {
            v = micros(local.toInstant(java.time.ZoneOffset.UTC));
        } else if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
            v = ((Number) value).longValue();
        } else if (value instanceof Float f) {
            v = (double) f;
        } else if (value instanceof BigDecimal || value instanceof Long || value instanceof Double
                || value instanceof String || value instanceof Boolean) {
            v = value;
        } else {
            throw new IllegalArgumentException("no statistics for a value of " + value.getClass().getName());
        }
        return Values.canonical(v);
    }

    private static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    }

    /** {@code file} relative to {@code root} ('/'-separated), or null if it is not below it. */
    static String relative(Path root, Path file) {
        String r = root.toUri().getPath();
        String f = file.toUri().getPath();
        String prefix = r.endsWith("/") ? r : r + "/";
        if (!sameStore(root, file) || !f.startsWith(prefix)) {
            return null;
        }
        return f.substring(prefix.length());
    }

    private static boolean sameStore(Path a, Path b) {
        return java.util.Objects.equals(a.toUri().getScheme(), b.toUri().getScheme())
                && java.util.Objects.equals(a.toUri().getAuthority(), b.toUri().getAuthority());
    }

    private static boolean hidden(String relative) {
        for (String segment : relative.split("/")) {
            if (segment.startsWith("_") || segment.startsWith(".")) {
                return true;
            }
        }
        return false;
    }
}
