package io.stork.commit;

import io.stork.layout.json.ModelJson;
import io.stork.layout.model.HistorySummary;
import io.stork.layout.model.PartitionerModel;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.skipping.LayoutSeparation;
import io.stork.skipping.PartStatistics;
import io.stork.skipping.StatisticsCodec;
import io.stork.skipping.spi.IndexTypes;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What the dataset tool says about a layout: the saved model in one line, and how well the current
 * generation's parts separate over its key columns ({@link LayoutSeparation}), from the statistics the
 * manifest already holds (no call beyond the manifest's).
 */
final class LayoutReport {

    /** Where a dataset keeps its layout model (written by {@code io.stork.spark.layout.StorkLayouts}). */
    static final String LAYOUT_MODEL = PartNames.INTERNAL_DIRECTORY + "/layout/model.json";

    private LayoutReport() {
    }

    /** The model at {@code file}: one GET. Throws for a missing ({@link FileNotFoundException}) or unreadable one. */
    static PartitionerModel readModel(FileSystem fs, Path file) throws IOException {
        try (InputStream in = fs.open(file)) {
            return ModelJson.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The dataset's model, if it has one (one GET, answered "not found" when it has none). */
    static Optional<PartitionerModel> findModel(FileSystem fs, Path dataset) throws IOException {
        try {
            return Optional.of(readModel(fs, new Path(dataset, LAYOUT_MODEL)));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** A model in one line: its kind, key columns, buckets and the history it was built from. */
    static String describe(PartitionerModel m) {
        String columns = m.columns().stream().map(c -> c.name() + " " + c.type().jsonName())
                .collect(Collectors.joining(", "));
        HistorySummary history = m.history();
        return String.format("%s over (%s), %d buckets, built %s", m.kind(), columns, m.buckets(),
                history.isEmpty() ? "without query history"
                        : "from " + history.queries() + " past queries (half-life "
                        + MaintenanceLimits.text(Duration.ofMillis(history.halfLifeMillis())) + ")");
    }

    static List<String> keyColumns(PartitionerModel m) {
        return m.columns().stream().map(io.stork.layout.model.Column::name).toList();
    }

    /** The separation of the manifest's parts over {@code columns}: each part's statistics parsed once more. */
    static LayoutSeparation separation(Manifest manifest, List<String> columns) throws IOException {
        LayoutSeparation.Builder builder = LayoutSeparation.over(columns);
        IndexTypes noIndexes = IndexTypes.of(); // bounds only: a machine with only Java has no bloom filter class
        for (ManifestPart part : manifest.parts()) {
            PartStatistics stats = part.statsJson() == null ? null
                    : StatisticsCodec.read(part.statsJson(), noIndexes).orElse(null);
            builder.add(stats);
        }
        return builder.result();
    }

    /** {@code inspect}'s lines under {@code layout:}: the box's figures, then each column's. */
    static String inspectLines(LayoutSeparation s) {
        String columns = String.join(", ", s.columns());
        StringBuilder b = new StringBuilder("  separation over (").append(columns).append("): ");
        if (s.boxParts() == 0) {
            return b.append(String.format("no part has min/max on every key column (%d parts)%n", s.parts())).toString();
        }
        if (Double.isNaN(s.overlap())) {
            b.append(String.format("the box is not counted past %d key columns", LayoutSeparation.MAX_BOX_COLUMNS));
        } else {
            b.append(String.format(Locale.ROOT, "a point lies in %s of %d parts' boxes on average (1 = disjoint), "
                    + "a box spans %s of the extent", overlap(s.overlap(), s.boxExact()), s.boxParts(),
                    percent(s.span())));
        }
        b.append(String.format("; %d parts without min/max%n", s.withoutBounds()));
        b.append("    per column:");
        for (int i = 0; i < s.perColumn().size(); i++) {
            LayoutSeparation.ColumnSeparation c = s.perColumn().get(i);
            b.append(i == 0 ? " " : ", ").append(c.column()).append(' ').append(overlap(c.overlap(), true))
                    .append(" (spans ").append(percent(c.span())).append(')');
        }
        return b.append('\n').toString();
    }

    /** {@code stats}' table: one row per column, and the box's when {@code withBox}. */
    static void printTable(LayoutSeparation s, String whose, boolean withBox, PrintStream out) {
        if (withBox) {
            out.printf("separation over (%s), %s: %d of %d parts with min/max on every one%n",
                    String.join(", ", s.columns()), whose, s.boxParts(), s.parts());
        } else {
            out.printf("separation per column, %s (%d parts)%n", whose, s.parts());
        }
        out.printf("%-32s %8s %9s %8s%n", "column", "parts", "overlap", "span");
        for (LayoutSeparation.ColumnSeparation c : s.perColumn()) {
            out.printf("%-32s %8d %9s %8s%n", c.column(), c.parts(), overlap(c.overlap(), true), percent(c.span()));
        }
        if (withBox && s.columns().size() > 1) {
            out.printf("%-32s %8d %9s %8s%n", "box (" + String.join(", ", s.columns()) + ")", s.boxParts(),
                    overlap(s.overlap(), s.boxExact()), percent(s.span()));
        }
        out.printf("(overlap: how many parts' ranges a point of the key space lies in on average, 1 = disjoint, "
                + "%d = every part covers all; span: the share of the extent a part covers, on average; numbers, "
                + "dates and timestamps by value, strings by rank%s)%n", Math.max(1, s.parts()), !withBox || s.boxExact() ? "" : "; ~: on coarser cells");
    }

    private static String overlap(double value, boolean exact) {
        return Double.isNaN(value) ? "-" : (exact ? "" : "~") + String.format(Locale.ROOT, "%.2f", value);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }
}
