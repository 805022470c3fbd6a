package io.stork.spark.layout;

import io.stork.layout.json.ModelJson;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.PartitionerModel;
import java.io.Serializable;
import java.util.Comparator;
import java.util.Iterator;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import scala.Tuple2;

/**
 * Routes a DataFrame's rows to the buckets of a model: each row keyed by (bucket, key), then shuffled so
 * that Spark partition i holds exactly bucket i (and, optionally, sorted by key within it by the shuffle's
 * own spilling sort). Tasks get the model as its JSON and read it once per partition.
 */
final class BucketRouting {

    private BucketRouting() {
    }

    static Dataset<Row> route(Dataset<Row> df, PartitionerModel model, boolean sortWithinBuckets) {
        KeyColumns key = KeyColumns.forModel(df.schema(), model.columns());
        String json = ModelJson.write(model);
        JavaPairRDD<BucketKey, Row> keyed = df.javaRDD().mapPartitionsToPair(rows -> keyed(rows, json, key));
        BucketPartitioner partitioner = new BucketPartitioner(model.buckets());
        JavaPairRDD<BucketKey, Row> shuffled = sortWithinBuckets
                ? keyed.repartitionAndSortWithinPartitions(partitioner, new KeyOrder(key.types()))
                : keyed.partitionBy(partitioner);
        JavaRDD<Row> rows = shuffled.values();
        return df.sparkSession().createDataFrame(rows, df.schema());
    }

    private static Iterator<Tuple2<BucketKey, Row>> keyed(Iterator<Row> rows, String json, KeyColumns key) {
        PartitionerModel model = ModelJson.read(json);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public Tuple2<BucketKey, Row> next() {
                Row row = rows.next();
                Object[] k = key.key(row);
                return new Tuple2<>(new BucketKey(model.bucketOf(k), k), row);
            }
        };
    }

    /** A row's bucket and its key values in canonical form (serialized with the row by the shuffle). */
    record BucketKey(int bucket, Object[] key) implements Serializable {
    }

    /** Partition i is bucket i. */
    static final class BucketPartitioner extends Partitioner {

        private static final long serialVersionUID = 1L;
        private final int buckets;

        BucketPartitioner(int buckets) {
            this.buckets = buckets;
        }

        @Override
        public int numPartitions() {
            return buckets;
        }

        @Override
        public int getPartition(Object key) {
            return ((BucketKey) key).bucket();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BucketPartitioner p && p.buckets == buckets;
        }

        @Override
        public int hashCode() {
            return buckets;
        }
    }

    /** By bucket, then by the key's columns in order, each as its layout type orders it (nulls first). */
    static final class KeyOrder implements Comparator<BucketKey>, Serializable {

        private static final long serialVersionUID = 1L;
        private final ColumnType[] types;

        KeyOrder(ColumnType[] types) {
            this.types = types;
        }

        @Override
        public int compare(BucketKey a, BucketKey b) {
            int c = Integer.compare(a.bucket(), b.bucket());
            for (int i = 0; c == 0 && i < types.length; i++) {
                c = types[i].compare(a.key()[i], b.key()[i]);
            }
            return c;
        }
    }
}
