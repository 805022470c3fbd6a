package io.stork.bench.layout;

import io.stork.bench.StoreReads;
import io.stork.layout.history.QueryHistory;
import io.stork.layout.kdtree.KdNode;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.layout.model.PartitionerModel;
import io.stork.localstore.AccessLog;
import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalStore;
import io.stork.spark.layout.LaidOut;
import io.stork.spark.layout.LayoutSpec;
import io.stork.spark.layout.Relayout;
import io.stork.spark.layout.StorkLayouts;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Writes the same rows once per layout and object count, and what each write cost at the store: Stork
 * Parquet laid out by no model (arrival order), a grid, a k-d tree, a k-d tree steered by a query history;
 * Delta tables through S3A in arrival order and then clustered by OPTIMIZE (Z-order, liquid), the optimize
 * measured apart from the first write; and Stork's relayout of the arrival-order write, measured apart the
 * same way.
 */
final class LayoutWriter {

    /** Time, client calls and bytes at the store (bytes in: request bodies; out: response bodies). */
    record Cost(long ms, long calls, long bytesIn, long bytesOut) {
    }

    /**
     * One dataset: its layout id, the objects asked for and produced, its size, what writing it cost, and
     * for a k-d tree how many of its splits each key column got (empty otherwise).
     */
    record Written(String layout, int buckets, String path, boolean delta, int objects, long bytes, Cost write,
                   Cost optimize, String splits) {
    }

    /** The layouts, in report order: id and label. */
    static final List<String[]> LAYOUTS = List.of(
            new String[] {"none", "Stork, no layout (arrival order)"},
            new String[] {"grid-p0", "Stork, grid precision 0 (1°)"},
            new String[] {"grid-p1", "Stork, grid precision 1 (0.1°)"},
            new String[] {"kd", "Stork, k-d tree (lat, lon)"},
            new String[] {"kd-date", "Stork, k-d tree (date, lat, lon)"},
            new String[] {"kd-history", "Stork, k-d tree (date, lat, lon) with query history"},
            new String[] {"kd-relayout", "Stork, arrival order, then relayout by a k-d tree (lat, lon)"},
            new String[] {"delta-zorder", "Delta, OPTIMIZE ZORDER BY (lat, lon)"},
            new String[] {"delta-liquid", "Delta, liquid clustering CLUSTER BY (lat, lon)"});

    private final SparkSession spark;
    private final LocalStore store;
    private final String bucket;
    private final QueryHistory history;

    LayoutWriter(SparkSession spark, LocalStore store, String bucket, QueryHistory history) {
        this.spark = spark;
        this.store = store;
        this.bucket = bucket;
        this.history = history;
    }

    Written write(String layout, Dataset<Row> rows, int n) throws IOException {
        boolean delta = layout.startsWith("delta");
        String path = (delta ? "s3a://" : "stork://") + bucket + "/" + layout + "-" + n;
        PartitionerModel[] model = new PartitionerModel[1];
        Cost write = measure(() -> {
            if (delta) {
                writeDelta(layout, rows, n, path);
            } else {
                model[0] = writeStork(layout, rows, n, path);
            }
        });
        Cost optimize = null;
        if (delta) {
            optimize = measure(() -> optimize(layout, path, n));
        } else if (layout.equals("kd-relayout")) {
            // Stork's counterpart of OPTIMIZE: the written generation rewritten as one new generation.
            optimize = measure(() -> model[0] = Relayout.of(spark, path, LayoutSpec.kdTree(List.of("lat", "lon"), n))
                    .useStoredHistory(false).run().model());
        }
        long[] objectsAndBytes = delta ? deltaDetail(path) : storkDetail(path);
        return new Written(layout, n, path, delta, (int) objectsAndBytes[0], objectsAndBytes[1], write, optimize,
                model[0] instanceof KdTreeModel kd ? splits(kd) : "");
    }

    /** "date 12, lat 60, lon 55": the splits on each key column, to see what a tree's boxes are cut by. */
    static String splits(KdTreeModel model) {
        int[] counts = new int[model.columns().size()];
        List<KdNode> pending = new ArrayList<>(List.of(model.root()));
        while (!pending.isEmpty()) {
            if (pending.remove(pending.size() - 1) instanceof KdNode.Split split) {
                counts[split.dim()]++;
                pending.add(split.left());
                pending.add(split.right());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < counts.length; i++) {
            out.append(i == 0 ? "" : ", ").append(model.columns().get(i).name()).append(' ').append(counts[i]);
        }
        return out.toString();
    }

    private PartitionerModel writeStork(String layout, Dataset<Row> rows, int n, String path) throws IOException {
        LaidOut out = switch (layout) {
            case "none", "kd-relayout" -> null;
            case "grid-p0" -> StorkLayouts.grid(rows, "lat", "lon", 0, n);
            case "grid-p1" -> StorkLayouts.grid(rows, "lat", "lon", 1, n);
            case "kd" -> StorkLayouts.kdTree(rows, List.of("lat", "lon"), n);
            case "kd-date" -> StorkLayouts.kdTree(rows, List.of("date", "lat", "lon"), n);
            case "kd-history" -> LayoutSpec.kdTree(List.of("date", "lat", "lon"), n)
                    .history(history, Duration.ofDays(7)).layOut(rows);
            default -> throw new IllegalArgumentException("unknown layout " + layout);
        };
        if (out == null) {
            arrival(rows, n).write().parquet(path);
            return null;
        }
        out.rows().write().parquet(path);
        out.saveModel(path);
        return out.model();
    }

    /** Arrival order cut into n objects: contiguous runs of time (as a batch of n writers would cut it). */
    static Dataset<Row> arrival(Dataset<Row> rows, int n) {
        return rows.repartitionByRange(n, functions.col("date"), functions.col("vid"));
    }

    private void writeDelta(String layout, Dataset<Row> rows, int n, String path) {
        if (layout.equals("delta-liquid")) {
            spark.sql("CREATE TABLE delta.`" + path + "` (" + Readings.DDL + ") USING delta CLUSTER BY (lat, lon)");
            arrival(rows, n).write().format("delta").mode("append").save(path);
        } else {
            arrival(rows, n).write().format("delta").save(path);
        }
    }

    /**
     * OPTIMIZE with its maximum file size at the table's size / n: Z-order rewrites a partition into
     * size / maxFileSize range partitions of the curve, and liquid clustering cuts its cubes the same way,
     * so both aim at n files, as many as the other layouts' objects.
     */
    private void optimize(String layout, String path, int n) {
        long size = deltaDetail(path)[1];
        spark.conf().set("spark.databricks.delta.optimize.maxFileSize", Long.toString(Math.max(1, size / n)));
        try {
            spark.sql("OPTIMIZE delta.`" + path + "`" + (layout.equals("delta-zorder") ? " ZORDER BY (lat, lon)" : ""))
                    .collectAsList();
        } finally {
            spark.conf().unset("spark.databricks.delta.optimize.maxFileSize");
        }
    }

    /** Files and bytes of the table's current version (OPTIMIZE's replaced files are not read any more). */
    private long[] deltaDetail(String path) {
        Row detail = spark.sql("DESCRIBE DETAIL delta.`" + path + "`").select("numFiles", "sizeInBytes").first();
        return new long[] {detail.getLong(0), detail.getLong(1)};
    }

    private long[] storkDetail(String path) throws IOException {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(path);
        var fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
        long bytes = 0;
        String[] files = spark.read().schema(Readings.SCHEMA).parquet(path).inputFiles();
        for (var status : fs.listStatus(root)) {
            if (status.isFile() && StoreReads.isDataObject(status.getPath().toString())) {
                bytes += status.getLen();
            }
        }
        return new long[] {files.length, bytes};
    }

    interface Action {
        void run() throws IOException;
    }

    private Cost measure(Action action) throws IOException {
        AccessLog.Window window = store.accessLog().openWindow();
        long start = System.nanoTime();
        action.run();
        long ms = (System.nanoTime() - start) / 1_000_000;
        List<AccessLogEntry> entries = StoreReads.inBucket(window.counts().entries(), bucket);
        return new Cost(ms, entries.size(), entries.stream().mapToLong(AccessLogEntry::bytesReceived).sum(),
                entries.stream().mapToLong(AccessLogEntry::bytesSent).sum());
    }
}
