package io.stork.bench.spark;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * SQL, read side: the scan, filter, aggregate and join queries of {@link StarSchema} over the Parquet
 * tables this run wrote. Each table is read through the connector as a fresh relation (no cached plan or
 * data); the result is a digest of all rows, which must be the same for every scenario.
 */
final class StarSchemaQueriesWorkload implements Workload {

    @Override
    public String id() {
        return "sql-queries";
    }

    @Override
    public String label() {
        return "SQL: " + StarSchema.QUERIES.size() + " queries";
    }

    @Override
    public String requires() {
        return StarSchemaWriteWorkload.ID;
    }

    @Override
    public String run(WorkloadContext context) {
        for (String table : StarSchema.TABLES) {
            context.spark().read().parquet(context.columnarOutput("sql/" + table)).createOrReplaceTempView(table);
        }
        StringBuilder results = new StringBuilder();
        int rows = 0;
        for (Map.Entry<String, String> query : StarSchema.QUERIES.entrySet()) {
            List<String> lines = context.spark().sql(query.getValue()).collectAsList().stream()
                    .map(Row::toString).sorted().toList();
            rows += lines.size();
            results.append(query.getKey()).append('\n').append(String.join("\n", lines)).append('\n');
        }
        return "rows=" + rows + " digest=" + digest(results.toString());
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
