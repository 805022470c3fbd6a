package io.stork.spark.dataset;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** {@link StorkDataset#detail()}: one row about the dataset, as Delta's {@code DESCRIBE DETAIL}. */
final class DatasetDetail {

    static final StructType DETAIL = StructType.fromDDL("format STRING, location STRING, generation BIGINT, "
            + "time TIMESTAMP, operation STRING, parts INT, bytes BIGINT, records BIGINT, schema STRING, "
            + "partition_columns ARRAY<STRING>, properties MAP<STRING, STRING>, layout STRING, "
            + "parts_with_statistics INT, restorable_from BIGINT, writer STRING");

    /** Data source names by the extension Spark's writers give parts (before any compression suffix). */
    private static final Map<String, String> FORMATS = Map.of("parquet", "parquet", "orc", "orc", "json", "json",
            "csv", "csv", "txt", "text", "avro", "avro", "xml", "xml");
    private static final List<String> COMPRESSION = List.of("gz", "bz2", "deflate", "lz4", "snappy", "zst", "zstd");

    private DatasetDetail() {
    }

    static Dataset<Row> of(SparkSession spark, String location, Optional<String> named, Manifest m,
                           Optional<String> layout) {
        Optional<String> format = named.isPresent() ? named : m.datasetSchema() != null
                ? Optional.of(m.datasetSchema().format()) : formatOf(m);
        Long records = 0L;
        int withStatistics = 0;
        for (ManifestPart p : m.parts()) {
            records = records == null || p.records() == null ? null : records + p.records();
            withStatistics += p.hasStatistics() ? 1 : 0;
        }
        String schema = schema(spark, location, format, m).map(StructType::toDDL).orElse(null);
        Row row = RowFactory.create(format.orElse(null), location, m.generation(),
                DatasetTables.time(spark, m.committedAt()), m.operation().jsonName(), m.parts().size(),
                m.totalLength(), records, schema, partitionColumns(m), m.properties(), layout.orElse(null),
                withStatistics, m.restorableFrom(), m.writer());
        return spark.createDataFrame(List.of(row), DETAIL);
    }

    /**
     * The dataset's schema. The manifest does not record one yet, so it is what Spark infers reading the
     * current generation as {@code format} (for Parquet, one footer); when the manifest records the schema,
     * this is the one place to take it from there. Empty when the format is unknown or the read fails.
     */
    static Optional<StructType> schema(SparkSession spark, String location, Optional<String> format, Manifest m) {
        io.stork.manifest.DatasetSchema recorded = m.datasetSchemaAt(m.generation());
        if (recorded != null) {
            try {
                if (org.apache.spark.sql.types.DataType.fromJson(recorded.json()) instanceof StructType struct) {
                    return Optional.of(struct.asNullable()); // the manifest's, as a read shows it (nullable)
                }
            } catch (RuntimeException e) {
                // not Spark's JSON: inferred below
            }
        }
        if (format.isEmpty() || m.parts().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(spark.read().format(format.get()).load(location).schema());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The format the parts' names tell ({@code part-00000-….snappy.parquet}, {@code ….csv.gz}), if one. */
    static Optional<String> formatOf(Manifest m) {
        for (ManifestPart p : m.parts()) {
            String[] pieces = p.path().substring(p.path().lastIndexOf('/') + 1).toLowerCase(Locale.ROOT).split("\\.");
            for (int i = pieces.length - 1; i > 0; i--) {
                if (FORMATS.containsKey(pieces[i])) {
                    return Optional.of(FORMATS.get(pieces[i]));
                }
                if (!COMPRESSION.contains(pieces[i])) {
                    break;
                }
            }
        }
        return Optional.empty();
    }

    /** Hive-style partition columns ({@code year=2024/…}), from the first part's directories. */
    static List<String> partitionColumns(Manifest m) {
        if (m.datasetSchemaAt(m.generation()) != null) {
            return m.datasetSchemaAt(m.generation()).partitionColumns();
        }
        List<String> columns = new ArrayList<>();
        if (!m.parts().isEmpty()) {
            String directory = m.parts().get(0).directory();
            for (String segment : directory.isEmpty() ? new String[0] : directory.split("/")) {
                int eq = segment.indexOf('=');
                if (eq > 0) {
                    columns.add(segment.substring(0, eq));
                }
            }
        }
        return columns;
    }
}
