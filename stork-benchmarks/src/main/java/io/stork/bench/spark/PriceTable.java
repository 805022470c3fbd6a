package io.stork.bench.spark;

import io.stork.store.CallType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * An object store's price list, applied to what the benchmark counts: calls in three classes (write-class
 * PUT/COPY/POST/LIST, read-class GET/HEAD/other, free DELETE) and bytes in and out. The default table is
 * {@code aws-s3-standard-us-east-1.properties}, which names its source and date.
 */
public record PriceTable(String name, String source, String date, String currency, double writePer1000,
                         double readPer1000, double deletePer1000, double outPerGb, double inPerGb) {

    public static PriceTable load(Path file) {
        if (file == null) {
            try (InputStream in = PriceTable.class.getResourceAsStream("aws-s3-standard-us-east-1.properties")) {
                return of(read(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try (InputStream in = Files.newInputStream(file)) {
            return of(read(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the price table " + file, e);
        }
    }

    private static Properties read(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        return p;
    }

    private static PriceTable of(Properties p) {
        return new PriceTable(required(p, "name"), required(p, "source"), required(p, "date"),
                required(p, "currency"), number(p, "write.per.1000"), number(p, "read.per.1000"),
                number(p, "delete.per.1000"), number(p, "out.per.gb"), number(p, "in.per.gb"));
    }

    private static String required(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("price table lacks '" + key + "'");
        }
        return value.trim();
    }

    private static double number(Properties p, String key) {
        try {
            return Double.parseDouble(required(p, key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("price table: '" + key + "' is not a number");
        }
    }

    /** What one measured workload's calls cost: all a connector decides (Spark in the store's region). */
    public double requestCost(Map<String, Long> calls) {
        double total = 0;
        for (Map.Entry<String, Long> e : calls.entrySet()) {
            total += e.getValue() / 1000.0 * perThousand(CallType.valueOf(e.getKey()));
        }
        return total;
    }

    /** What one measured workload costs with its bytes billed as transfer (Spark outside the region). */
    public double cost(Map<String, Long> calls, long bytesIn, long bytesOut) {
        return requestCost(calls) + bytesIn / 1e9 * inPerGb + bytesOut / 1e9 * outPerGb;
    }

    private double perThousand(CallType type) {
        switch (type) {
            case PUT, COPY, LIST, MULTIPART_INITIATE, MULTIPART_PART, MULTIPART_COMPLETE, BULK_DELETE, BUCKET_CREATE:
                return writePer1000;
            case DELETE, MULTIPART_ABORT, BUCKET_DELETE:
                return deletePer1000;
            default:
                return readPer1000;
        }
    }
}
