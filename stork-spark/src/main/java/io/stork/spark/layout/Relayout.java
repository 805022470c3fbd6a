package io.stork.spark.layout;

import io.stork.hadoop.DatasetParts;
import io.stork.hadoop.StorkFileSystem;
import io.stork.layout.history.QueryHistory;
import io.stork.layout.model.PartitionerModel;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.spark.layout.history.HistoryFile;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Rewrites a dataset's current generation into a new layout as one new generation (docs/layouts.md,
 * "Relayout"): the rows of generation G are read (time travel, so appends committed meanwhile are not read
 * twice), laid out by a model built from them (steered by the dataset's stored query history unless told
 * otherwise), and written as an append whose commit replaces exactly G's parts ({@code RelayoutPlan} in
 * stork-commit). Nothing is visible before that commit; readers see G or the relayout, never part of it;
 * parts committed after G are kept; G's parts stay on the store for the retention period (time travel to G
 * keeps working). A relayout that finds one of G's parts gone at its commit fails and commits nothing.
 * <pre>{@code
 * Relayout.Result r = Relayout.of(spark, "stork://b/t", LayoutSpec.kdTree(List.of("lat", "lon"), 64)).run();
 * }</pre>
 * {@link #prepare()} then {@link Prepared#commit()} splits it in two, to see what it will do first.
 */
public final class Relayout {

    private final SparkSession spark;
    private final String path;
    private final LayoutSpec spec;
    private final String format;
    private final Map<String, String> readOptions;
    private final boolean storedHistory;
    private final long targetObjectBytes;

    /** What a relayout did. */
    public record Result(long sourceGeneration, long generation, int partsBefore, long bytesBefore, int partsAfter,
                         long bytesAfter, int partsKept, PartitionerModel model, int historyQueries) {
    }

    private Relayout(SparkSession spark, String path, LayoutSpec spec, String format, Map<String, String> readOptions,
                     boolean storedHistory, long targetObjectBytes) {
        this.spark = spark;
        this.path = path;
        this.spec = spec;
        this.format = format;
        this.readOptions = Map.copyOf(readOptions);
        this.storedHistory = storedHistory;
        this.targetObjectBytes = targetObjectBytes;
    }

    /** A relayout of the dataset at {@code path} by {@code spec}; the format is its parts' (by their names). */
    public static Relayout of(SparkSession spark, String path, LayoutSpec spec) {
        return new Relayout(spark, path, spec, null, Map.of(), true, 0);
    }

    /** The parts' format, when their names do not say it (parquet, orc, json, csv, ...). */
    public Relayout format(String format) {
        return new Relayout(spark, path, spec, format, readOptions, storedHistory, targetObjectBytes);
    }

    /** Options for reading the parts (a CSV's header and schema, ...); the write uses them too. */
    public Relayout option(String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(readOptions);
        more.put(key, value);
        return new Relayout(spark, path, spec, format, more, storedHistory, targetObjectBytes);
    }

    /** Whether the dataset's stored query history steers the model when the spec has none (default true). */
    public Relayout useStoredHistory(boolean use) {
        return new Relayout(spark, path, spec, format, readOptions, use, targetObjectBytes);
    }

    /** Choose the number of buckets so that objects hold about this many bytes (the spec's count otherwise). */
    public Relayout targetObjectBytes(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("a target object size must be positive, not " + bytes);
        }
        return new Relayout(spark, path, spec, format, readOptions, storedHistory, bytes);
    }

    /** Prepares and commits. */
    public Result run() throws IOException {
        return prepare().commit();
    }

    /**
     * Reads which generation is current (the manifest: one GET unless cached) and the stored history (one
     * GET), and builds the model from a sample of that generation's rows. Nothing is written yet.
     */
    public Prepared prepare() throws IOException {
        // Without the extension the write would be a plain append (the rows twice) and versionAsOf ignored.
        if (!spark.conf().get("spark.sql.extensions", "").contains("io.stork.spark.StorkSparkExtensions")) {
            throw new IllegalStateException("relayout needs Stork's Spark extension in the session: "
                    + "spark.sql.extensions=io.stork.spark.StorkSparkExtensions");
        }
        Path root = new Path(path);
        FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
        if (!(fs instanceof StorkFileSystem stork)) {
            throw new IllegalArgumentException("relayout works on stork:// datasets, not " + path);
        }
        DatasetParts parts = stork.datasets().atRoot(root).orElseThrow(() -> new IOException("no Stork dataset at "
                + path + " (a relayout rewrites a committed generation)"));
        List<ManifestPart> all = parts.all();
        if (all.isEmpty()) {
            throw new IOException("dataset " + path + " has no parts at generation " + parts.generation()
                    + ": nothing to relayout");
        }
        if (all.stream().anyMatch(p -> !p.directory().isEmpty())) {
            // Its rows would come back without their partition directories (partitionBy is not redone).
            throw new IllegalArgumentException("dataset " + path + " is partitioned (parts under "
                    + all.stream().filter(p -> !p.directory().isEmpty()).findFirst().get().directory()
                    + "/): relayout rewrites unpartitioned datasets only");
        }
        long bytes = all.stream().mapToLong(ManifestPart::length).sum();
        String fmt = format != null ? format : formatOf(all, path);
        LayoutSpec effective = spec;
        int historyQueries = 0;
        if (storedHistory && !spec.hasHistory()) {
            Optional<QueryHistory> history = HistoryFile.read(stork.makeQualified(root),
                    spark.sparkContext().hadoopConfiguration());
            if (history.isPresent() && !history.get().isEmpty()) {
                effective = effective.history(history.get(), LayoutSpec.DEFAULT_HALF_LIFE);
                historyQueries = history.get().size();
            }
        }
        if (targetObjectBytes > 0) {
            effective = effective.buckets((int) Math.max(1, Math.min(Integer.MAX_VALUE,
                    (bytes + targetObjectBytes - 1) / targetObjectBytes)));
        }
        Dataset<Row> rows = spark.read().format(fmt).options(readOptions)
                .option("versionAsOf", Long.toString(parts.generation())).load(path);
        LaidOut laid = effective.layOut(rows);
        Map<String, String> writeOptions = new LinkedHashMap<>(readOptions);
        parts.properties().forEach((k, v) -> {
            if (k.startsWith("stork.skipping.")) {
                writeOptions.putIfAbsent(k, v); // the dataset's skipping settings, which the write would replace
            }
        });
        laid.writeOptions().forEach(writeOptions::putIfAbsent);
        return new Prepared(parts.generation(), all.size(), bytes, fmt, laid, historyQueries, writeOptions);
    }

    /** A relayout ready to write: the generation it read and the laid-out rows. */
    public final class Prepared {
        private final long source;
        private final int partsBefore;
        private final long bytesBefore;
        private final String fmt;
        private final LaidOut laid;
        private final int historyQueries;
        private final Map<String, String> writeOptions;

        private Prepared(long source, int partsBefore, long bytesBefore, String fmt, LaidOut laid, int historyQueries,
                         Map<String, String> writeOptions) {
            this.writeOptions = Map.copyOf(writeOptions);
            this.source = source;
            this.partsBefore = partsBefore;
            this.bytesBefore = bytesBefore;
            this.fmt = fmt;
            this.laid = laid;
            this.historyQueries = historyQueries;
        }

        public long sourceGeneration() {
            return source;
        }

        public PartitionerModel model() {
            return laid.model();
        }

        /**
         * Writes the laid-out rows and commits them as one generation replacing the parts of the generation
         * read (parts committed since are kept), then saves the model beside the dataset (one PUT).
         */
        public Result commit() throws IOException {
            laid.rows().write().format(fmt).options(writeOptions).mode("append")
                    .option("stork.relayout.generation", Long.toString(source)).save(path);
            laid.saveModel(path);
            Path root = new Path(path);
            StorkFileSystem fs = (StorkFileSystem) root.getFileSystem(spark.sparkContext().hadoopConfiguration());
            DatasetParts after = fs.datasets().atRoot(root).orElseThrow(() -> new IOException("dataset " + path
                    + " has no manifest after its relayout"));
            long written = 0;
            int mine = 0;
            for (ManifestPart part : after.all()) {
                if (part.jobId().equals(after.jobId())) {
                    mine++;
                    written += part.length();
                }
            }
            return new Result(source, after.generation(), partsBefore, bytesBefore, mine, written,
                    after.all().size() - mine, laid.model(), historyQueries);
        }
    }

    /** The format the parts' names say (part-00000-…-c000.snappy.parquet → parquet); one for all. */
    static String formatOf(List<ManifestPart> parts, String path) {
        String found = null;
        for (ManifestPart part : parts) {
            String name = PartNames.fileName(part.path()).toLowerCase(Locale.ROOT);
            String ext = name.endsWith(".parquet") ? "parquet" : name.endsWith(".orc") ? "orc"
                    : name.contains(".json") ? "json" : name.contains(".csv") ? "csv" : name.endsWith(".avro") ? "avro"
                    : null;
            if (ext == null || (found != null && !found.equals(ext))) {
                throw new IllegalArgumentException("dataset " + path + ": the format of its parts is not clear from "
                        + "their names (" + name + "); give it with Relayout.format(...)");
            }
            found = ext;
        }
        return found;
    }
}
