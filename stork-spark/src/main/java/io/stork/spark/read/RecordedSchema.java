package io.stork.spark.read;

import io.stork.hadoop.DatasetParts;
import io.stork.manifest.DatasetSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data schema a read takes from the manifest instead of inferring it (docs/manifest-file-index.md,
 * "Schema"): no footer read on the driver for Parquet and ORC, no pass over the data for CSV and JSON.
 * Used when the manifest records a schema for the generation read, the read is in the format the parts
 * were written in, and the recorded partition columns are those the directories give; otherwise null and
 * Spark infers as without Stork.
 */
final class RecordedSchema {

    /** Session key: false makes reads infer their schema as Spark does, whatever the manifest records. */
    static final String ENABLED = "spark.stork.read.recordedSchema";
    /** Read option with the same effect for one read. */
    static final String OPTION = "stork.recordedSchema";
    private static final Logger LOG = LoggerFactory.getLogger(RecordedSchema.class);
    /**
     * Formats whose reads take the recorded schema. Parquet and ORC keep the written schema in each file,
     * so the recorded one is what inference would find; CSV and JSON would guess types from the text,
     * where the recorded schema gives the written ones. Others (text: one fixed column) infer nothing.
     */
    private static final Set<String> FORMATS = Set.of("parquet", "orc", "csv", "json");

    private RecordedSchema() {
    }

    /** The data columns of the recorded schema, or null to infer. */
    static StructType dataSchema(SparkSession session, DatasetParts parts, FileFormat format,
                                 CaseInsensitiveMap<String> options, StructType partitionSchema) {
        DatasetSchema recorded = parts.schema();
        if (recorded == null || !enabled(session, options)) {
            return null;
        }
        String name = format instanceof DataSourceRegister register ? register.shortName() : null;
        if (name == null || !FORMATS.contains(name) || !name.equals(recorded.format())) {
            return null;
        }
        boolean caseSensitive = session.sessionState().conf().caseSensitiveAnalysis();
        List<String> directories = new ArrayList<>();
        for (String column : partitionSchema.fieldNames()) {
            directories.add(caseSensitive ? column : column.toLowerCase(Locale.ROOT));
        }
        List<String> written = new ArrayList<>();
        for (String column : recorded.partitionColumns()) {
            written.add(caseSensitive ? column : column.toLowerCase(Locale.ROOT));
        }
        if (!directories.equals(written)) {
            return null; // the directories say otherwise (a write outside Spark's partitioning): infer
        }
        StructType all;
        try {
            DataType parsed = DataType.fromJson(recorded.json());
            if (!(parsed instanceof StructType struct)) {
                return null;
            }
            all = struct;
        } catch (RuntimeException e) {
            LOG.warn("{}: the manifest's schema does not parse ({}); inferring it", parts.root(), e.toString());
            return null;
        }
        List<StructField> data = new ArrayList<>();
        for (StructField field : all.fields()) {
            if (!written.contains(caseSensitive ? field.name() : field.name().toLowerCase(Locale.ROOT))) {
                data.add(field);
            }
        }
        return data.isEmpty() ? null : new StructType(data.toArray(new StructField[0]));
    }

    private static boolean enabled(SparkSession session, CaseInsensitiveMap<String> options) {
        String option = ManifestRelationRule.option(options, OPTION);
        if (option != null) {
            return Boolean.parseBoolean(option.trim());
        }
        return Boolean.parseBoolean(session.sessionState().conf().getConfString(ENABLED, "true").trim());
    }
}
