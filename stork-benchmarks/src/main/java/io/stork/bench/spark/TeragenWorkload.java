package io.stork.bench.spark;

/**
 * Teragen (write only): 100-byte records (10-byte key, 20-digit row id, filler; newline included), one
 * output object per {@code objectBytes} of records.
 */
final class TeragenWorkload implements Workload {

    static final String OUTPUT = "teragen";

    @Override
    public String id() {
        return "teragen";
    }

    @Override
    public String label() {
        return "Teragen";
    }

    @Override
    public String run(WorkloadContext context) {
        long records = context.sizes().teragenRecords();
        context.spark().range(0, records, 1, context.sizes().smallObjects())
                .selectExpr("concat(substr(sha2(cast(id AS STRING), 256), 1, 10), lpad(cast(id AS STRING), 20, '0'),"
                        + " repeat('x', 69)) AS value")
                .write().text(context.output(OUTPUT));
        return "records=" + records;
    }

    @Override
    public String verify(WorkloadContext context) {
        return "records=" + context.spark().read().text(context.output(OUTPUT)).count();
    }
}
