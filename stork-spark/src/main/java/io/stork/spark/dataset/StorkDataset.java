package io.stork.spark.dataset;

import io.stork.commit.DatasetOperations;
import io.stork.manifest.Changes;
import io.stork.manifest.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;

/**
 * A Stork dataset's history, details, parts and maintenance as DataFrames (docs/sql.md), the Java face of
 * what the dataset tool prints and of Stork's SQL commands:
 * <pre>{@code
 * StorkDataset t = StorkDataset.forPath(spark, "stork://b/events");
 * t.history().where("operation = 'overwrite'").show();
 * t.files().orderBy(col("size").desc()).show();
 * t.restore(3);
 * }</pre>
 * Every call reads the manifest afresh (one GET); the results are local DataFrames, so they can be filtered
 * and joined. The work is stork-commit's ({@link DatasetOperations}, the manifest's {@link Changes}), the
 * same as the dataset tool's. From Python: {@code from stork import Dataset}.
 */
public final class StorkDataset {

    private final SparkSession spark;
    private final Path root;
    private final Optional<String> format;

    private StorkDataset(SparkSession spark, Path root, Optional<String> format) {
        this.spark = spark;
        this.root = root;
        this.format = format;
    }

    /** The dataset at {@code path}, a {@code stork://bucket/dataset} URI (not pinned to a generation). */
    public static StorkDataset forPath(SparkSession spark, String path) {
        return forPath(spark, path, null);
    }

    /**
     * As {@link #forPath(SparkSession, String)}, read as {@code format} (a data source name such as
     * {@code parquet}; null or {@code stork}: told by the parts' names) where the schema is needed.
     */
    public static StorkDataset forPath(SparkSession spark, String path, String format) {
        if (path == null || !path.toLowerCase(Locale.ROOT).startsWith("stork://")) {
            throw new IllegalArgumentException("not a Stork dataset: '" + path + "' (give a stork://bucket/path URI, "
                    + "or a table whose location is one)");
        }
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        Path root = new Path(trimmed);
        if (root.toUri().getAuthority() == null || root.toUri().getPath().isEmpty()) {
            throw new IllegalArgumentException("not a Stork dataset: '" + path + "' names no dataset inside a bucket");
        }
        if (root.getName().contains("@")) {
            throw new IllegalArgumentException("'" + path + "' is pinned to a generation: give the dataset's own path "
                    + "(and the generation as an argument)");
        }
        boolean named = format != null && !format.isBlank() && !format.equalsIgnoreCase("stork");
        return new StorkDataset(spark, root, named ? Optional.of(format.toLowerCase(Locale.ROOT)) : Optional.empty());
    }

    /**
     * The dataset behind a session catalog table ({@code db.table}) whose location is on Stork, or at a path
     * when {@code nameOrPath} is a {@code stork://} URI.
     */
    public static StorkDataset forName(SparkSession spark, String nameOrPath) {
        if (nameOrPath.contains("://")) {
            return forPath(spark, nameOrPath);
        }
        TableIdentifier id;
        try {
            id = spark.sessionState().sqlParser().parseTableIdentifier(nameOrPath);
        } catch (Exception e) { // ParseException
            throw new IllegalArgumentException("not a table name or stork:// path: '" + nameOrPath + "'");
        }
        return forTable(spark, id);
    }

    /** The dataset behind a session catalog table whose location is on Stork. */
    public static StorkDataset forTable(SparkSession spark, TableIdentifier table) {
        CatalogTable metadata;
        try {
            metadata = spark.sessionState().catalog().getTableMetadata(table);
        } catch (Exception e) { // NoSuchTableException, NoSuchDatabaseException: checked in Scala, not declared
            throw new IllegalArgumentException("no table " + table.unquotedString() + " in the session catalog");
        }
        String location = metadata.storage().locationUri().isDefined()
                ? metadata.storage().locationUri().get().toString() : "";
        if (!location.toLowerCase(Locale.ROOT).startsWith("stork://")) {
            throw new IllegalArgumentException("table " + table.unquotedString() + " is not on Stork: its location is '"
                    + location + "', not a stork:// path");
        }
        return forPath(spark, location, metadata.provider().isDefined() ? metadata.provider().get() : null);
    }

    /** The dataset's root, qualified ({@code stork://bucket/dataset}). */
    public String path() {
        return root.toString();
    }

    /** The data source the dataset is read as, if it was named (a table's provider, {@code parquet.`…`}). */
    public Optional<String> format() {
        return format;
    }

    /** The data source to read the dataset as: the one named, else the one its parts' names tell (one GET). */
    public Optional<String> readFormat() {
        return format.isPresent() ? format : DatasetDetail.formatOf(manifest());
    }

    /**
     * The generations the manifest keeps, newest first: generation, time, operation, job, parts, bytes,
     * records, parts_added, parts_removed, bytes_added, bytes_removed, writer.
     */
    public Dataset<Row> history() {
        return DatasetTables.history(spark, manifest());
    }

    /** One row: format, location, generation, parts, bytes, schema, properties, layout, statistics present. */
    public Dataset<Row> detail() {
        Manifest manifest = manifest();
        Optional<String> layout = call(() -> DatasetOperations.layout(fileSystem(), root));
        return DatasetDetail.of(spark, path(), format, manifest, layout);
    }

    /** The parts of the current generation: path, size, ETag, records, statistics by column. */
    public Dataset<Row> files() {
        Manifest manifest = manifest();
        return DatasetTables.files(spark, manifest, manifest.generation());
    }

    /** The parts generation {@code generation} named (within the retention period). */
    public Dataset<Row> files(long generation) {
        Manifest manifest = manifest();
        try {
            manifest.partsAt(generation);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path() + ": " + e.getMessage());
        }
        return DatasetTables.files(spark, manifest, generation);
    }

    /**
     * The parts added and removed after generation {@code from} up to {@code to} (as the tool's
     * {@code changes}; {@code to} 0 or less: the current generation), in commit order.
     */
    public Dataset<Row> changes(long from, long to) {
        Manifest manifest = manifest();
        Changes changes;
        try {
            changes = Changes.between(manifest, from, to <= 0 ? manifest.generation() : to);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path() + ": " + e.getMessage());
        }
        return DatasetTables.changes(spark, changes);
    }

    /** The changes after generation {@code from} up to the current one. */
    public Dataset<Row> changes(long from) {
        return changes(from, 0);
    }

    /**
     * The dataset tool's {@code vacuum}, with its safety: parts dropped longer than {@code retainHours} ago
     * (null: the dataset's retention setting), stray attempt parts and stale bookkeeping, never under the
     * maintenance floor. Rows: path, size, kind, deleted (false in a dry run: what would be deleted).
     */
    public Dataset<Row> vacuum(Double retainHours, boolean dryRun) {
        if (retainHours != null && (retainHours.isNaN() || retainHours < 0)) {
            throw new IllegalArgumentException("RETAIN takes a number of hours, 0 or more, not " + retainHours);
        }
        Duration retention = retainHours == null ? null : Duration.ofMillis(Math.round(retainHours * 3_600_000d));
        DatasetOperations.VacuumResult result = call(() -> DatasetOperations.vacuum(hadoopConf(), root, retention,
                dryRun));
        return DatasetTables.vacuum(spark, result);
    }

    /** {@link #vacuum(Double, boolean)} with the dataset's retention setting. */
    public Dataset<Row> vacuum() {
        return vacuum(null, false);
    }

    /** A new generation naming generation {@code generation}'s parts (nothing copied); one row saying so. */
    public Dataset<Row> restore(long generation) {
        Manifest restored = call(() -> DatasetOperations.restore(fileSystem(), root, generation));
        return DatasetTables.restored(spark, restored, generation);
    }

    /** Restores the generation current at {@code time}: a UTC time ({@code 2026-11-23 10:00:00}) or an instant. */
    public Dataset<Row> restoreToTimestamp(String time) {
        java.time.Instant instant = io.stork.spark.StorkTimeTravelRule.instant(time);
        Manifest current = manifest();
        long generation = current.generationAt(instant).orElseThrow(() -> new IllegalArgumentException(
                "no generation of " + path() + " was committed at or before " + instant + " (the manifest lists "
                        + "generations " + current.restorableFrom() + " to " + current.generation() + ")"));
        return restore(generation);
    }

    /** The manifest, read now (one GET); one line when the path holds no Stork dataset. */
    Manifest manifest() {
        return call(() -> DatasetOperations.manifest(fileSystem(), root)).orElseThrow(() ->
                new IllegalArgumentException("no Stork dataset at " + path() + ": it has no manifest (_SUCCESS)"));
    }

    private Configuration hadoopConf() {
        return spark.sessionState().newHadoopConf();
    }

    private FileSystem fileSystem() throws IOException {
        return root.getFileSystem(hadoopConf());
    }

    private interface StoreCall<T> {
        T run() throws IOException;
    }

    /** The store's failures unchecked, their message kept as the one line a user sees. */
    private <T> T call(StoreCall<T> work) {
        try {
            return work.run();
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            // stork-commit's messages mostly name the dataset already
            throw new UncheckedIOException(message.contains(path()) ? message : path() + ": " + message, e);
        }
    }
}
