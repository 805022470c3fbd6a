package io.stork.spark.skipping;

import io.stork.hadoop.DatasetParts;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.segment.Segment;
import io.stork.manifest.segment.SegmentRef;
import io.stork.skipping.StatisticsTable;
import io.stork.skipping.spi.IndexTypes;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statistics of one generation's parts as a {@link StatisticsTable}, built once per generation (kept
 * with the file system's cached manifest, {@link DatasetParts#derived}) and shared by every query of it.
 */
final class GenerationStatistics {

    static final String NAME = "io.stork.skipping.table";

    /** Table 0: the parts the manifest lists itself; then one per segment, shared by every generation naming it. */
    private final StatisticsTable[] tables;
    private final int[] tableOf;
    private final int[] rowOf;
    private final List<ManifestPart> parts;
    /** Row by part, made on the first lookup of a part not listed from this manifest (listings know the row). */
    private volatile Map<ManifestPart, Integer> ordinals;

    private GenerationStatistics(StatisticsTable[] tables, int[] tableOf, int[] rowOf, List<ManifestPart> parts) {
        this.tables = tables;
        this.tableOf = tableOf;
        this.rowOf = rowOf;
        this.parts = parts;
    }

    static GenerationStatistics of(DatasetParts parts, IndexTypes types) {
        List<ManifestPart> all = parts.all();
        // A segment's table is made once (from its binary block, the segments in parallel) and kept with the
        // segment, which the file system keeps across generations: an append decodes none of it again, and
        // a generation's parts point into the tables rather than copying them.
        Map<Segment, Integer> segments = new java.util.LinkedHashMap<>();
        List<String> ownJson = new ArrayList<>();
        int[] tableOf = new int[all.size()];
        int[] rowOf = new int[all.size()];
        for (int i = 0; i < all.size(); i++) {
            ManifestPart part = all.get(i);
            SegmentRef ref = part.segment();
            if (ref != null && ref.segment().statistics() != null) {
                tableOf[i] = segments.computeIfAbsent(ref.segment(), s -> segments.size() + 1);
                rowOf[i] = ref.ordinal();
            } else {
                rowOf[i] = ownJson.size();
                ownJson.add(part.statsJson());
            }
        }
        StatisticsTable[] tables = new StatisticsTable[segments.size() + 1];
        tables[0] = StatisticsTable.of(ownJson, types);
        List<Segment> list = new ArrayList<>(segments.keySet());
        java.util.stream.IntStream.range(0, list.size()).parallel()
                .forEach(s -> tables[s + 1] = table(list.get(s), types));
        return new GenerationStatistics(tables, tableOf, rowOf, all);
    }

    private static StatisticsTable table(Segment segment, IndexTypes types) {
        return segment.derived(NAME, s -> {
            try {
                return StatisticsTable.of(s.statistics(), types);
            } catch (java.io.IOException | RuntimeException e) {
                return StatisticsTable.of(java.util.Collections.nCopies(s.partCount(), (String) null), types);
            }
        });
    }

    /** Whether the part at {@code ordinal} of the generation has statistics. */
    boolean hasStatistics(int ordinal) {
        return tables[tableOf[ordinal]].hasStatistics(rowOf[ordinal]);
    }

    /** {@link StatisticsTable#mayMatch} for the part at {@code ordinal} of the generation. */
    boolean mayMatch(int ordinal, io.stork.skipping.expr.Predicate normalized, java.util.Set<String> columns) {
        return tables[tableOf[ordinal]].mayMatch(rowOf[ordinal], normalized, columns);
    }

    int size() {
        return parts.size();
    }

    /** Whether row {@code ordinal} is {@code part} (positions are the manifest's: the same list, no lookup). */
    boolean isOf(DatasetParts parts, int ordinal, ManifestPart part) {
        List<ManifestPart> all = parts.all();
        return ordinal < all.size() && all.get(ordinal) == part && ordinal < size();
    }

    /** The part's row in the table, or -1 for a part of another manifest instance. */
    int ordinal(ManifestPart part) {
        Map<ManifestPart, Integer> byPart = ordinals;
        if (byPart == null) {
            byPart = new IdentityHashMap<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                byPart.put(parts.get(i), i);
            }
            ordinals = byPart;
        }
        Integer i = byPart.get(part);
        return i == null ? -1 : i;
    }
}
