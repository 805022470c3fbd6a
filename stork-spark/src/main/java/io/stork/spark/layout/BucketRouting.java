package io.stork.spark.layout;

import io.stork.layout.json.ModelJson;
import io.stork.layout.model.PartitionerModel;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Routes a DataFrame's rows to the buckets of a model inside its own plan: each row gets its bucket from
 * the model (a UDF over the key columns), {@code repartitionById} places bucket i in Spark partition i (a
 * user-given partition count, which adaptive execution does not coalesce), rows are optionally sorted by
 * key within each partition, and the bucket column is dropped. The plan keeps the input's attributes, so
 * the result can replace the input anywhere (a write's query included). Tasks get the model as its JSON and
 * parse it once per task.
 */
final class BucketRouting {

    /** The bucket column, only between the routing's own plan nodes. */
    private static final String BUCKET = "__stork_layout_bucket";

    private BucketRouting() {
    }

    static Dataset<Row> route(Dataset<Row> df, PartitionerModel model, boolean sortWithinBuckets) {
        KeyColumns key = KeyColumns.forModel(df.schema(), model.columns());
        List<Column> keyColumns = new ArrayList<>();
        for (String name : key.names()) {
            keyColumns.add(df.col(quoted(name)));
        }
        Column struct = functions.struct(keyColumns.toArray(Column[]::new));
        // The UDF sees the key as one struct; its fields keep the key columns' names and types.
        org.apache.spark.sql.types.StructType structType = (org.apache.spark.sql.types.StructType)
                df.select(struct.as("k")).schema().fields()[0].dataType();
        KeyColumns inStruct = KeyColumns.forModel(structType, model.columns());
        UserDefinedFunction bucketOf = functions.udf(new BucketOf(ModelJson.write(model), inStruct),
                DataTypes.IntegerType);
        Dataset<Row> routed = df.withColumn(BUCKET, bucketOf.apply(struct))
                .repartitionById(model.buckets(), functions.col(BUCKET));
        if (sortWithinBuckets) {
            List<Column> sortBy = new ArrayList<>();
            for (io.stork.layout.model.Column c : model.sortColumns()) {
                sortBy.add(keyColumns.get(model.columns().indexOf(c)));
            }
            // Rows with equal keys (a meter's readings under a (lat, lon) key) come in whatever order the
            // input's tasks gave them: the order of the files read, for a relayout. Ordered by the other
            // columns in the schema's order, they keep a stable order (time, when it comes first), which is
            // what makes their running values encode in runs.
            for (StructField f : df.schema().fields()) {
                if (!key.names().contains(f.name()) && orderable(f.dataType())) {
                    sortBy.add(df.col(quoted(f.name())));
                }
            }
            routed = routed.sortWithinPartitions(sortBy.stream().map(Column::asc_nulls_first).toArray(Column[]::new));
        }
        return routed.drop(BUCKET);
    }

    /** Atomic types, whose comparison is cheap (nested and map columns are left out of the order). */
    private static boolean orderable(DataType t) {
        return t instanceof NumericType || t instanceof StringType || t instanceof DateType || t instanceof TimestampType
                || t instanceof TimestampNTZType || t instanceof BooleanType;
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** A row's bucket: the model, read from its JSON once per deserialized copy (a task's). */
    static final class BucketOf implements UDF1<Row, Integer> {

        private static final long serialVersionUID = 1L;
        private final String json;
        private final KeyColumns key;
        private transient PartitionerModel model;

        BucketOf(String json, KeyColumns key) {
            this.json = json;
            this.key = key;
        }

        @Override
        public Integer call(Row keyStruct) {
            if (model == null) {
                model = ModelJson.read(json);
            }
            return model.bucketOf(key.key(keyStruct));
        }
    }
}
