package io.stork.spark.skipping;

import io.stork.skipping.ColumnType;
import io.stork.skipping.StatisticsCodec;
import io.stork.skipping.collect.PartStatisticsCollector;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.spi.IndexTypes;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Which statistics a file write gathers, decided on the driver from the write's options
 * ({@code stork.skipping.*}), over the dataset's properties (the settings an earlier write gave, kept in
 * the manifest), over the session's defaults ({@code spark.stork.skipping.*}); serialized to
 * the tasks, where {@link #newFile()} starts the statistics of each file written.
 */
public final class WriteStatistics implements Serializable {

    private static final Logger LOG = LoggerFactory.getLogger(WriteStatistics.class);
    private static final String SESSION_PREFIX = "spark." + SkippingSpec.PREFIX;

    private final SkippingSpec spec;
    private final DataType[] types;
    private final WriteEncoding encoding;

    private WriteStatistics(SkippingSpec spec, DataType[] types, WriteEncoding encoding) {
        this.spec = spec;
        this.types = types;
        this.encoding = encoding;
    }

    /**
     * The statistics for rows of {@code dataSchema} (partition columns are not in it: the directory names
     * carry them). Throws IllegalArgumentException, one line, for a bad setting.
     */
    public static WriteStatistics forWrite(SparkSession session, String formatName,
                                           scala.collection.Map<String, String> writeOptions,
                                           Map<String, String> datasetProperties, StructType dataSchema) {
        Map<String, String> defaults = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Map<String, String> own = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Map<String, String> formatOptions = new LinkedHashMap<>();
        CollectionConverters.asJava(session.sessionState().conf().getAllConfs()).forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(SESSION_PREFIX)) {
                defaults.put(k.substring("spark.".length()), v);
            }
        });
        CollectionConverters.asJava(writeOptions).forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(SkippingSpec.PREFIX)) {
                own.put(k, v);
            } else {
                formatOptions.put(k.toLowerCase(Locale.ROOT), v);
            }
        });
        WriteEncoding encoding = WriteEncoding.of(formatName, formatOptions,
                session.sessionState().conf().getConfString("spark.sql.parquet.outputTimestampType", "INT96"));
        IndexTypes types = IndexTypes.load(Thread.currentThread().getContextClassLoader());
        Map<String, String> settings = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        settings.putAll(defaults);
        if (!own.isEmpty()) {
            // A write that gives skipping options replaces the dataset's settings as a whole: mixing its
            // columns with an older write's index list would describe neither.
            settings.putAll(own);
            return of(dataSchema, settings, encoding, types);
        }
        datasetProperties.forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(SkippingSpec.PREFIX)) {
                settings.put(k, v);
            }
        });
        try {
            return of(dataSchema, settings, encoding, types);
        } catch (IllegalArgumentException e) {
            // The dataset's settings do not fit these rows (a column dropped since): the write goes on with
            // the session's defaults rather than failing on a setting it did not give.
            LOG.warn("Data skipping: the dataset's settings do not fit this write ({}); using the session's defaults",
                    e.getMessage());
            settings.clear();
            settings.putAll(defaults);
            return of(dataSchema, settings, encoding, types);
        }
    }

    static WriteStatistics of(StructType dataSchema, Map<String, String> settings, WriteEncoding encoding,
                              IndexTypes indexTypes) {
        if (encoding == null) {
            settings = new LinkedHashMap<>(settings);
            settings.put(SkippingSpec.ENABLED, "false"); // a format whose written values are not known
        }
        List<Map.Entry<String, ColumnType>> schema = new ArrayList<>();
        for (StructField field : dataSchema.fields()) {
            boolean covered = encoding == null || encoding.covered(field.dataType());
            schema.add(new AbstractMap.SimpleImmutableEntry<>(field.name(),
                    covered ? SparkValues.kind(field.dataType()) : null));
        }
        SkippingSpec spec = SkippingSpec.of(schema, settings, indexTypes);
        DataType[] types = new DataType[spec.columns().size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = dataSchema.fields()[spec.columns().get(i).ordinal()].dataType();
        }
        return new WriteStatistics(spec, types, encoding);
    }

    public boolean isEmpty() {
        return spec.isEmpty();
    }

    /** The statistics of one file being written, or null when none are gathered. */
    public FileStatistics newFile() {
        if (spec.isEmpty()) {
            return null;
        }
        IndexTypes indexTypes = IndexTypes.load(Thread.currentThread().getContextClassLoader());
        return new FileStatistics(spec, types, encoding, spec.newCollector(indexTypes));
    }

    /**
     * One file's statistics, row by row. A failure here never fails the write: the file then has no
     * statistics, and is always read.
     */
    public static final class FileStatistics {
        private final SkippingSpec spec;
        private final DataType[] types;
        private final WriteEncoding encoding;
        private PartStatisticsCollector collector;

        FileStatistics(SkippingSpec spec, DataType[] types, WriteEncoding encoding, PartStatisticsCollector collector) {
            this.spec = spec;
            this.types = types;
            this.encoding = encoding;
            this.collector = collector;
        }

        public void add(InternalRow row) {
            if (collector == null) {
                return;
            }
            try {
                for (int i = 0; i < types.length; i++) {
                    Object value = SparkValues.get(row, spec.columns().get(i).ordinal(), types[i]);
                    collector.column(i).add(value == null ? null : encoding.readBack(value, types[i]));
                }
                collector.rowDone();
            } catch (WriteEncoding.Unrepresentable e) {
                LOG.info("Data skipping: no statistics for this file ({}); it will always be read", e.getMessage());
                collector = null;
            } catch (RuntimeException e) {
                LOG.warn("Data skipping: no statistics for this file ({}); it will always be read", e.toString());
                collector = null;
            }
        }

        /** The statistics as the manifest carries them, or null. */
        public String json() {
            if (collector == null) {
                return null;
            }
            try {
                return StatisticsCodec.write(collector.finish());
            } catch (RuntimeException e) {
                LOG.warn("Data skipping: no statistics for this file ({}); it will always be read", e.toString());
                return null;
            }
        }
    }
}
