package io.stork.spark.skipping;

import io.stork.hadoop.DatasetParts;
import io.stork.manifest.ManifestPart;
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

    private final StatisticsTable table;
    private final Map<ManifestPart, Integer> ordinals;

    private GenerationStatistics(StatisticsTable table, Map<ManifestPart, Integer> ordinals) {
        this.table = table;
        this.ordinals = ordinals;
    }

    static GenerationStatistics of(DatasetParts parts, IndexTypes types) {
        List<ManifestPart> all = parts.all();
        List<String> json = new ArrayList<>(all.size());
        Map<ManifestPart, Integer> ordinals = new IdentityHashMap<>(all.size());
        for (ManifestPart part : all) {
            ordinals.put(part, json.size());
            json.add(part.statsJson());
        }
        return new GenerationStatistics(StatisticsTable.of(json, types), ordinals);
    }

    StatisticsTable table() {
        return table;
    }

    /** Whether row {@code ordinal} is {@code part} (positions are the manifest's: the same list, no lookup). */
    boolean isOf(DatasetParts parts, int ordinal, ManifestPart part) {
        List<ManifestPart> all = parts.all();
        return ordinal < all.size() && all.get(ordinal) == part && ordinal < table.size();
    }

    /** The part's row in the table, or -1 for a part of another manifest instance. */
    int ordinal(ManifestPart part) {
        Integer i = ordinals.get(part);
        return i == null ? -1 : i;
    }
}
