package io.stork.spark.dataset;

import io.stork.commit.DatasetOperations;
import io.stork.manifest.Changes;
import io.stork.manifest.GenerationInfo;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.RemovedPart;
import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.PartStatistics;
import io.stork.skipping.StatisticsCodec;
import io.stork.skipping.spi.IndexTypes;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** The rows of {@link StorkDataset}'s tables, from a manifest or a maintenance result, and their schemas. */
final class DatasetTables {

    static final StructType HISTORY = StructType.fromDDL("generation BIGINT, time TIMESTAMP, operation STRING, "
            + "job STRING, parts INT, bytes BIGINT, records BIGINT, parts_added INT, parts_removed INT, "
            + "bytes_added BIGINT, bytes_removed BIGINT, writer STRING");
    static final StructType STATISTIC = StructType.fromDDL("type STRING, min STRING, max STRING, nulls BIGINT, "
            + "nans BIGINT");
    static final StructType FILES = StructType.fromDDL("path STRING, size BIGINT, etag STRING, records BIGINT, "
            + "added_in BIGINT, modified TIMESTAMP, job STRING, statistics MAP<STRING, STRUCT<type: STRING, "
            + "min: STRING, max: STRING, nulls: BIGINT, nans: BIGINT>>");
    static final StructType CHANGES = StructType.fromDDL("generation BIGINT, change STRING, path STRING, "
            + "size BIGINT, etag STRING, records BIGINT");
    static final StructType VACUUM = StructType.fromDDL("path STRING, size BIGINT, kind STRING, deleted BOOLEAN");
    static final StructType RESTORE = StructType.fromDDL("restored_generation BIGINT, generation BIGINT, "
            + "parts INT, bytes BIGINT, parts_added INT, parts_removed INT");

    private DatasetTables() {
    }

    /**
     * Newest first, as Delta's {@code DESCRIBE HISTORY}. Bytes added and removed are summed from the parts
     * the manifest still knows: exact from the oldest restorable generation on (removals from the one after),
     * null before; the writer is recorded for the current generation only.
     */
    static Dataset<Row> history(SparkSession spark, Manifest m) {
        Map<Long, Long> added = new java.util.HashMap<>();
        Map<Long, Long> removed = new java.util.HashMap<>();
        m.parts().forEach(p -> added.merge(p.addedIn(), p.length(), Long::sum));
        for (RemovedPart r : m.removed()) {
            added.merge(r.part().addedIn(), r.part().length(), Long::sum);
            removed.merge(r.removedIn(), r.part().length(), Long::sum);
        }
        List<GenerationInfo> lines = new ArrayList<>(m.history());
        lines.sort(Comparator.comparingLong(GenerationInfo::generation).reversed());
        List<Row> rows = new ArrayList<>();
        for (GenerationInfo h : lines) {
            long g = h.generation();
            Long bytesAdded = h.added() == 0 ? Long.valueOf(0) : g >= m.restorableFrom() ? added.getOrDefault(g, 0L)
                    : null;
            Long bytesRemoved = h.removed() == 0 ? Long.valueOf(0) : g > m.restorableFrom()
                    ? removed.getOrDefault(g, 0L) : null;
            rows.add(RowFactory.create(g, time(spark, h.committedAt()), h.operation().jsonName(), h.jobId(),
                    h.partCount(), h.bytes(), h.records(), h.added(), h.removed(), bytesAdded, bytesRemoved,
                    g == m.generation() ? m.writer() : null));
        }
        return spark.createDataFrame(rows, HISTORY);
    }

    /** The parts generation {@code g} named, in the manifest's order. */
    static Dataset<Row> files(SparkSession spark, Manifest m, long g) {
        IndexTypes noIndexes = IndexTypes.of(); // min/max, nulls: an index's content needs Spark's classes
        List<Row> rows = new ArrayList<>();
        for (ManifestPart p : m.partsAt(g)) {
            rows.add(RowFactory.create(p.path(), p.length(), p.etag(), p.records(), p.addedIn(),
                    time(spark, Instant.ofEpochMilli(p.modifiedAt())), p.jobId(),
                    statistics(p, noIndexes).orElse(null)));
        }
        return spark.createDataFrame(rows, FILES);
    }

    /** A part's statistics by column; empty where it has none or they cannot be read. */
    private static Optional<Map<String, Row>> statistics(ManifestPart part, IndexTypes types) {
        String json = part.statsJson();
        if (json == null) {
            return Optional.empty();
        }
        Optional<PartStatistics> stats;
        try {
            stats = StatisticsCodec.read(json, types);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // a newer writer's statistics: the part reads as one without
        }
        return stats.map(s -> {
            Map<String, Row> columns = new LinkedHashMap<>();
            for (Map.Entry<String, ColumnStatistics> e : s.columns().entrySet()) {
                ColumnStatistics c = e.getValue();
                columns.put(e.getKey(), RowFactory.create(c.type().jsonName(), text(c.min()), text(c.max()),
                        c.nullCount(), c.nanCount()));
            }
            return columns;
        });
    }

    static Dataset<Row> changes(SparkSession spark, Changes changes) {
        List<Row> rows = new ArrayList<>();
        for (Changes.Event e : changes.inCommitOrder()) {
            ManifestPart p = e.part();
            rows.add(RowFactory.create(e.generation(), e.added() ? "added" : "removed", p.path(), p.length(),
                    p.etag(), p.records()));
        }
        return spark.createDataFrame(rows, CHANGES);
    }

    static Dataset<Row> vacuum(SparkSession spark, DatasetOperations.VacuumResult result) {
        List<Row> rows = new ArrayList<>();
        for (DatasetOperations.Deletion d : result.deletions()) {
            rows.add(RowFactory.create(d.path(), d.bytes(), d.kind(), !result.dryRun()));
        }
        return spark.createDataFrame(rows, VACUUM);
    }

    static Dataset<Row> restored(SparkSession spark, Manifest m, long source) {
        GenerationInfo info = m.info(m.generation()).orElse(null);
        return spark.createDataFrame(List.of(RowFactory.create(source, m.generation(), m.parts().size(),
                m.totalLength(), info == null ? null : info.added(), info == null ? null : info.removed())), RESTORE);
    }

    /** A time as the session's timestamp values are: an Instant with the Java 8 API on, else a Timestamp. */
    static Object time(SparkSession spark, Instant instant) {
        if (instant == null) {
            return null;
        }
        return spark.sessionState().conf().datetimeJava8ApiEnabled() ? instant : java.sql.Timestamp.from(instant);
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }
}
