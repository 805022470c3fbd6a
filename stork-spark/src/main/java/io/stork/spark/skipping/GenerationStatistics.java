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
    private final List<ManifestPart> parts;
    /** Row by part, made on the first lookup of a part not listed from this manifest (listings know the row). */
    private volatile Map<ManifestPart, Integer> ordinals;

    private GenerationStatistics(StatisticsTable table, List<ManifestPart> parts) {
        this.table = table;
        this.parts = parts;
    }

    static GenerationStatistics of(DatasetParts parts, IndexTypes types) {
        List<ManifestPart> all = parts.all();
        List<String> json = new ArrayList<>(all.size());
        for (ManifestPart part : all) {
            json.add(part.statsJson());
        }
        return new GenerationStatistics(StatisticsTable.of(json, types), all);
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
