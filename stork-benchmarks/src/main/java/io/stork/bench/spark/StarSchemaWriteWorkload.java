package io.stork.bench.spark;

/** SQL, write side: generates the star schema and writes each table as Parquet. */
final class StarSchemaWriteWorkload implements Workload {

    static final String ID = "sql-write";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "SQL: write star schema (Parquet)";
    }

    @Override
    public String run(WorkloadContext context) {
        for (String table : StarSchema.TABLES) {
            StarSchema.table(context.spark(), table, context.sizes().salesRows(), context.sizes().salesObjects())
                    .write().parquet(context.columnarOutput("sql/" + table));
        }
        return "";
    }

    @Override
    public String verify(WorkloadContext context) {
        StringBuilder counts = new StringBuilder();
        for (String table : StarSchema.TABLES) {
            counts.append(counts.length() == 0 ? "" : " ").append(table).append('=')
                    .append(context.spark().read().parquet(context.columnarOutput("sql/" + table)).count());
        }
        return counts.toString();
    }
}
