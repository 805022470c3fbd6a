package io.stork.kafka;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The partitioner's producer properties, parsed and checked once by Kafka's own {@link ConfigDef} (types,
 * defaults, allowed values), plus the rules ConfigDef cannot say: exactly one model source, CSV columns
 * with the CSV format.
 *
 * @param modelFile   a local path to the model JSON, or null
 * @param dataset     a dataset URI whose {@code _stork/layout/model.json} is the model, or null
 * @param format      csv, json or object
 * @param csvColumns  the CSV's column names in order (csv only; empty otherwise)
 * @param delimiter   the CSV delimiter
 * @param fold        whether buckets beyond the topic's partitions fold onto them (bucket mod partitions)
 * @param hadoop      Hadoop configuration for the dataset path: the {@code stork.layout.hadoop.*} properties
 *                    without that prefix
 */
record PartitionerSettings(String modelFile, String dataset, String format, List<String> csvColumns,
                           char delimiter, boolean fold, Map<String, String> hadoop) {

    static final String CSV = "csv";
    static final String JSON = "json";
    static final String OBJECT = "object";

    static final ConfigDef DEFINITION = new ConfigDef()
            .define(StorkLayoutPartitioner.MODEL_FILE, Type.STRING, null, Importance.HIGH,
                    "A local path to the layout model's JSON (as ModelJson.write makes it). Exactly one of this and "
                            + StorkLayoutPartitioner.DATASET + ".")
            .define(StorkLayoutPartitioner.DATASET, Type.STRING, null, Importance.HIGH,
                    "A dataset URI (stork://bucket/table); its _stork/layout/model.json is read through Hadoop's "
                            + "FileSystem API, which must be on the class path.")
            .define(StorkLayoutPartitioner.VALUE_FORMAT, Type.STRING, ConfigDef.NO_DEFAULT_VALUE,
                    ConfigDef.ValidString.in(CSV, JSON, OBJECT), Importance.HIGH,
                    "How the key columns are read from a record's value: csv, json or object.")
            .define(StorkLayoutPartitioner.CSV_COLUMNS, Type.LIST, List.of(), Importance.MEDIUM,
                    "The CSV's column names in order (value format csv).")
            .define(StorkLayoutPartitioner.CSV_DELIMITER, Type.STRING, ",", Importance.LOW,
                    "The CSV's delimiter: one ASCII character; \\t for a tab.")
            .define(StorkLayoutPartitioner.PARTITIONS_FOLD, Type.BOOLEAN, false, Importance.MEDIUM,
                    "With fewer partitions than buckets, send bucket b to partition b mod partitions instead of "
                            + "failing.");

    PartitionerSettings {
        csvColumns = List.copyOf(csvColumns);
        hadoop = Map.copyOf(hadoop);
    }

    static PartitionerSettings parse(Map<String, ?> configs) {
        Map<String, Object> v = DEFINITION.parse(configs);
        String file = blankToNull((String) v.get(StorkLayoutPartitioner.MODEL_FILE));
        String dataset = blankToNull((String) v.get(StorkLayoutPartitioner.DATASET));
        if ((file == null) == (dataset == null)) {
            throw new ConfigException("set exactly one of " + StorkLayoutPartitioner.MODEL_FILE + " (a local model file) "
                    + "and " + StorkLayoutPartitioner.DATASET + " (a dataset URI), not " + (file == null ? "neither"
                    : "both"));
        }
        String format = (String) v.get(StorkLayoutPartitioner.VALUE_FORMAT);
        @SuppressWarnings("unchecked")
        List<String> columns = ((List<String>) v.get(StorkLayoutPartitioner.CSV_COLUMNS)).stream().map(String::strip)
                .toList();
        if (format.equals(CSV) && columns.isEmpty()) {
            throw new ConfigException(StorkLayoutPartitioner.CSV_COLUMNS + " must name the CSV's columns in order when "
                    + StorkLayoutPartitioner.VALUE_FORMAT + "=csv");
        }
        String d = (String) v.get(StorkLayoutPartitioner.CSV_DELIMITER);
        String delimiter = "\\t".equals(d) ? "\t" : d;
        if (delimiter.length() != 1) {
            throw new ConfigException(StorkLayoutPartitioner.CSV_DELIMITER, d, "one character (\\t for a tab)");
        }
        Map<String, String> hadoop = new TreeMap<>();
        configs.forEach((key, value) -> {
            if (key.startsWith(StorkLayoutPartitioner.HADOOP_PREFIX) && value != null) {
                hadoop.put(key.substring(StorkLayoutPartitioner.HADOOP_PREFIX.length()), value.toString());
            }
        });
        return new PartitionerSettings(file, dataset, format, format.equals(CSV) ? columns : List.of(),
                delimiter.charAt(0), (Boolean) v.get(StorkLayoutPartitioner.PARTITIONS_FOLD), hadoop);
    }

    /** Hadoop settings may hold secrets (store keys): only their names are ever shown. */
    @Override
    public String toString() {
        return "PartitionerSettings[modelFile=" + modelFile + ", dataset=" + dataset + ", format=" + format
                + ", csvColumns=" + csvColumns + ", fold=" + fold + ", hadoop keys=" + hadoop.keySet() + "]";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
