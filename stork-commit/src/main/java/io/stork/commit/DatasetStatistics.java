package io.stork.commit;

import io.stork.layout.model.PartitionerModel;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.ColumnType;
import io.stork.skipping.PartStatistics;
import io.stork.skipping.StatisticsCodec;
import io.stork.skipping.Values;
import io.stork.skipping.spi.IndexTypes;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code stork-dataset stats <dataset>}: the data-skipping statistics of the current generation, per
 * column over all parts (type, least and greatest value, nulls, NaN, parts that have statistics for it), and
 * how well the parts' ranges separate over the layout's key columns.
 * Index contents (value lists, bloom filters) are not read: a machine with only Java has no Spark bloom
 * filter class, and the per-column summary does not need them.
 */
final class DatasetStatistics {

    private static final class Column {
        ColumnType type;
        Object min;
        Object max;
        boolean maxIsPrefix;
        long nulls;
        long nans;
        int parts;
    }

    private DatasetStatistics() {
    }

    /**
     * The statistics per column, then how well the parts separate ({@link LayoutReport}) over
     * {@code keyColumns}; when none are named, over the saved layout model's (one GET more to look for it),
     * else each column with min/max on its own.
     */
    static int print(FileSystem rawFs, Path root, List<String> keyColumns, PrintStream out) throws IOException {
        Path qualified = rawFs.makeQualified(root);
        Optional<Manifest> manifest;
        try (InputStream in = rawFs.open(new Path(qualified, PartNames.MANIFEST))) {
            manifest = ManifestCodec.readIfStork(in, new Path(qualified, PartNames.MANIFEST).toString(),
                    FileSystemDatasetStorage.segments(rawFs, qualified));
        } catch (FileNotFoundException e) {
            manifest = Optional.empty();
        }
        if (manifest.isEmpty()) {
            out.println(qualified + ": no Stork manifest, so no statistics");
            return 1;
        }
        Map<String, Column> columns = new LinkedHashMap<>();
        int withStatistics = 0;
        long rows = 0;
        IndexTypes noIndexes = IndexTypes.of();
        for (ManifestPart part : manifest.get().parts()) {
            if (part.statsJson() == null) {
                continue;
            }
            Optional<PartStatistics> stats = StatisticsCodec.read(part.statsJson(), noIndexes);
            if (stats.isEmpty()) {
                continue;
            }
            withStatistics++;
            rows += stats.get().rows();
            stats.get().columns().forEach((name, c) -> merge(columns.computeIfAbsent(name, n -> new Column()), c));
        }
        out.printf("%s, generation %d: %d parts, %d with statistics (%,d rows)%n", qualified,
                manifest.get().generation(), manifest.get().parts().size(), withStatistics, rows);
        if (!columns.isEmpty()) {
            out.printf("%-24s %-8s %-26s %-26s %12s %8s %6s%n", "column", "type", "min", "max", "nulls", "NaN", "parts");
            columns.forEach((name, c) -> out.printf("%-24s %-8s %-26s %-26s %,12d %,8d %6d%n", name, c.type.jsonName(),
                    shown(c.min, false), shown(c.max, c.maxIsPrefix), c.nulls, c.nans, c.parts));
        }
        printSeparation(rawFs, qualified, manifest.get(), keyColumns,
                columns.entrySet().stream().filter(e -> e.getValue().min != null).map(Map.Entry::getKey).toList(), out);
        return 0;
    }

    private static void printSeparation(FileSystem rawFs, Path root, Manifest manifest, List<String> named,
                                        List<String> withBounds, PrintStream out) throws IOException {
        if (!named.isEmpty()) {
            LayoutReport.printTable(LayoutReport.separation(manifest, named), "the columns named", true, out);
            return;
        }
        Optional<PartitionerModel> model;
        try {
            model = LayoutReport.findModel(rawFs, root);
        } catch (IOException | RuntimeException e) {
            out.printf("layout: unreadable model %s (%s)%n", LayoutReport.LAYOUT_MODEL, e.getMessage());
            model = Optional.empty();
        }
        if (model.isPresent()) {
            out.println("layout: " + LayoutReport.describe(model.get()));
            LayoutReport.printTable(LayoutReport.separation(manifest, LayoutReport.keyColumns(model.get())),
                    "the layout's key columns", true, out);
        } else if (!withBounds.isEmpty()) {
            // No layout to judge: each column on its own (a box over unrelated columns would say little).
            LayoutReport.printTable(LayoutReport.separation(manifest, withBounds), "each column with min/max", false,
                    out);
        }
    }

    private static void merge(Column into, ColumnStatistics c) {
        if (into.type != null && into.type != c.type()) {
            into.min = null; // the column changed type between writes: no single range
            into.max = null;
        }
        into.type = c.type();
        into.nulls += c.nullCount();
        into.nans += c.nanCount();
        into.parts++;
        if (c.hasBounds()) {
            if (into.min == null || Values.compare(c.type(), c.min(), into.min) < 0) {
                into.min = c.min();
            }
            if (into.max == null || Values.compare(c.type(), c.max(), into.max) > 0
                    || Values.compare(c.type(), c.max(), into.max) == 0 && c.maxIsPrefix()) {
                into.max = c.max();
                into.maxIsPrefix = c.maxIsPrefix();
            }
        }
    }

    private static String shown(Object value, boolean prefix) {
        if (value == null) {
            return "-";
        }
        String s = value.toString();
        s = s.length() > 24 ? s.substring(0, 24) + "…" : s;
        return prefix ? s + "…" : s;
    }
}
