package io.stork.bench.layout;

import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.layout.gridpocket.Reading;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * GridPocket readings as a DataFrame in arrival order. Generated on the executors, one task per day (a
 * generator over that day's 96 steps, the same meters in every task since their placement depends only on
 * the seed and the count), so that the paper's size is only a matter of the cluster. The cumulative index
 * restarts every day; the benchmark's queries use the daily running totals, which do not care.
 */
final class Readings {

    static final long START = 1_767_225_600L; // 2026-01-01T00:00Z
    static final String DDL = "date BIGINT, `index` DOUBLE, sumHC DOUBLE, sumHP DOUBLE, type STRING, vid BIGINT, "
            + "size BIGINT, temp DOUBLE, city STRING, region BIGINT, lat DOUBLE, lon DOUBLE";
    static final StructType SCHEMA = StructType.fromDDL(DDL);

    private Readings() {
    }

    /** The generator the queries are drawn from: the same meters and time span as the rows. */
    static GridPocketGenerator generator(LayoutOptions o) {
        return new GridPocketGenerator(o.seed(), o.meters(), START, o.steps());
    }

    /** Every reading, day after day, every meter at one time before the next time (arrival order). */
    static Dataset<Row> frame(SparkSession spark, LayoutOptions o) {
        List<Integer> days = new ArrayList<>();
        for (int d = 0; d < o.days(); d++) {
            days.add(d);
        }
        long seed = o.seed();
        int meters = o.meters();
        JavaRDD<Row> rows = JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(days, days.size())
                .mapPartitions(it -> day(seed, meters, it.next()));
        return spark.createDataFrame(rows, SCHEMA);
    }

    private static Iterator<Row> day(long seed, int meters, int day) {
        Iterator<Reading> readings = new GridPocketGenerator(seed, meters, START + day * 86_400L, 96).readings()
                .iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return readings.hasNext();
            }

            @Override
            public Row next() {
                return RowFactory.create(readings.next().toRow());
            }
        };
    }
}
