package io.stork.spark.it;

import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The writer process of {@link TwoProcessSnapshotStoreTest}: a Spark application of its own (another JVM)
 * that commits {@link SnapshotSchedule}'s rounds to one dataset and prints {@code COMMITTED <round>} as
 * soon as each write returned. Arguments: s3 bucket, swift bucket, dataset URI, rounds.
 */
public final class SnapshotWriterMain {

    private SnapshotWriterMain() {
    }

    public static void main(String[] args) throws Exception {
        String path = args[2];
        int rounds = Integer.parseInt(args[3]);
        SparkSession spark = SparkOnLocalStore.builder("stork-snapshot-writer", args[0], args[1])
                .master("local[1]")
                .config("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions")
                // queries' history written when the session stops, not inside a counted window
                .config("spark.stork.layout.history.flushInterval", "1h")
                .getOrCreate();
        try {
            for (int r = 1; r <= rounds; r++) {
                SnapshotSchedule.Operation op = SnapshotSchedule.operation(r);
                var rows = spark.range(SnapshotSchedule.firstId(r), SnapshotSchedule.endId(r), 1, 2)
                        .selectExpr("id", "id % 2 AS k");
                if (op == SnapshotSchedule.Operation.PARTITION_OVERWRITE) {
                    rows = rows.where("k = 0");
                }
                var writer = rows.write().partitionBy("k")
                        .mode(op == SnapshotSchedule.Operation.APPEND ? SaveMode.Append : SaveMode.Overwrite);
                if (op == SnapshotSchedule.Operation.PARTITION_OVERWRITE) {
                    writer = writer.option("partitionOverwriteMode", "dynamic");
                }
                writer.parquet(path);
                System.out.println("COMMITTED " + r);
                System.out.flush();
                Thread.sleep(800); // time for the reader to query each generation
            }
        } finally {
            spark.stop();
        }
    }
}
