package io.stork.manifest;

import java.util.List;
import java.util.Objects;

/**
 * The dataset's schema as its writers gave it, kept in the manifest so that planning a read needs no footer
 * or sample read (docs/manifest-format.md, {@code schema}).
 *
 * @param json             Spark's schema JSON ({@code StructType.json()}) of every column: data columns, then
 *                         the partition columns
 * @param partitionColumns the partition columns' names, in directory order (empty: not partitioned)
 * @param format           the file format the parts are written in ({@code parquet}, {@code orc}, {@code csv},
 *                         {@code json}, ...): a read in another format does not use the schema
 * @param since            the first generation this schema describes: a read of an older generation
 *                         (time travel) infers its schema as without one
 */
public record DatasetSchema(String json, List<String> partitionColumns, String format, long since) {

    /**
     * The job properties (io.stork.commit.DatasetProperties) that hand the schema a job wrote from the
     * writer's preparation to the job commit; the commit takes them out of the dataset's properties and
     * records the schema as evolved ({@link SchemaEvolution}).
     */
    public static final String STRUCT_PROPERTY = "stork.schema.struct";
    public static final String PARTITION_COLUMNS_PROPERTY = "stork.schema.partitionColumns";
    public static final String FORMAT_PROPERTY = "stork.schema.format";

    /** The schema a job hands over in its properties, or null when it gave none. */
    public static DatasetSchema ofJobProperties(java.util.Map<String, String> properties) {
        String struct = properties.get(STRUCT_PROPERTY);
        String format = properties.get(FORMAT_PROPERTY);
        if (struct == null || struct.isEmpty() || format == null || format.isEmpty()) {
            return null;
        }
        String columns = properties.getOrDefault(PARTITION_COLUMNS_PROPERTY, "");
        List<String> names = new java.util.ArrayList<>();
        if (!columns.isEmpty()) {
            // A JSON array of names: any character may be in a column name.
            if (!(SchemaEvolution.parse(columns) instanceof List<?> list)) {
                throw new IllegalArgumentException(PARTITION_COLUMNS_PROPERTY + " is not a JSON array: " + columns);
            }
            list.forEach(name -> names.add(String.valueOf(name)));
        }
        return new DatasetSchema(struct, names, format, 1);
    }

    /** The value of {@link #PARTITION_COLUMNS_PROPERTY} for these names. */
    public static String partitionColumnsProperty(List<String> names) {
        return SchemaEvolution.write(List.copyOf(names));
    }

    /** Whether {@code key} is one of the hand-over properties, not a dataset property. */
    public static boolean isHandOver(String key) {
        return key.equals(STRUCT_PROPERTY) || key.equals(PARTITION_COLUMNS_PROPERTY) || key.equals(FORMAT_PROPERTY);
    }

    public DatasetSchema {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(format, "format");
        partitionColumns = partitionColumns == null ? List.of() : List.copyOf(partitionColumns);
        if (since < 1) {
            throw new IllegalArgumentException("schema since generation " + since + ": generations start at 1");
        }
    }

    /** The same schema, said to describe generations from {@code generation} on. */
    public DatasetSchema since(long generation) {
        return new DatasetSchema(json, partitionColumns, format, generation);
    }

    /** Whether this schema describes generation {@code g}. */
    public boolean describes(long g) {
        return g >= since;
    }
}
