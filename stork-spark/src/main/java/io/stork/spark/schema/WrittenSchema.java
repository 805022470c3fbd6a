package io.stork.spark.schema;

import io.stork.commit.DatasetProperties;
import io.stork.manifest.DatasetSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Hands the schema a Spark write writes with to its job commit, which records it in the manifest
 * (docs/manifest-format.md, {@code schema}): through the job's configuration, as the dataset's other
 * properties travel ({@link DatasetProperties}), since Spark gives the writer's preparation and the job
 * commit the same Hadoop job.
 */
public final class WrittenSchema {

    private WrittenSchema() {
    }

    /** The partition columns of a write as a schema (their types as the query has them). */
    public static StructType partitionSchema(scala.collection.immutable.Seq<Attribute> partitionColumns) {
        List<StructField> fields = new ArrayList<>();
        for (Attribute a : CollectionConverters.asJava(partitionColumns)) {
            fields.add(new StructField(a.name(), a.dataType(), a.nullable(), Metadata.empty()));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }

    /**
     * Sets the hand-over on the job: every column (the data columns, then the partition columns, the order a
     * read of the dataset shows them in), the partition columns' names and the format's short name.
     */
    public static void handOver(Configuration jobConf, String format, StructType dataSchema, StructType partitionSchema) {
        if (format == null) {
            return; // a format without a short name: nothing a read could match it against
        }
        List<StructField> all = new ArrayList<>(List.of(dataSchema.fields()));
        all.addAll(List.of(partitionSchema.fields()));
        DatasetProperties.set(jobConf, DatasetSchema.STRUCT_PROPERTY,
                new StructType(all.toArray(new StructField[0])).json());
        DatasetProperties.set(jobConf, DatasetSchema.PARTITION_COLUMNS_PROPERTY,
                DatasetSchema.partitionColumnsProperty(List.of(partitionSchema.fieldNames())));
        DatasetProperties.set(jobConf, DatasetSchema.FORMAT_PROPERTY, format);
    }
}
