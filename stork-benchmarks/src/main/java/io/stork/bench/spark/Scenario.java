package io.stork.bench.spark;

import java.util.Map;

/**
 * One connector set-up the benchmark measures: how its datasets are named and the Spark settings that
 * select it. Everything a scenario needs is in {@link #sparkConf()}, so the report can print exactly what
 * each one ran with.
 *
 * @param id short name used on the command line and in result files (e.g. {@code s3a-magic})
 * @param label name in tables and charts
 * @param api the wire API it speaks to the store: {@code S3} or {@code Swift}
 * @param uriPattern dataset URI with {@code {bucket}} and {@code {path}} placeholders
 * @param columnarUriPattern the same for Parquet datasets (differs only where a connector needs other
 *        settings for them)
 * @param sparkConf settings given to the Spark session (Hadoop ones prefixed {@code spark.hadoop.})
 * @param notes what a reader of the results should know (deviations from defaults and why)
 */
public record Scenario(String id, String label, String api, String uriPattern, String columnarUriPattern,
                       Map<String, String> sparkConf,
                       String notes) {

    public Scenario {
        sparkConf = Map.copyOf(sparkConf);
    }

    public String uri(String bucket, String path) {
        return uriPattern.replace("{bucket}", bucket).replace("{path}", path);
    }

    public String columnarUri(String bucket, String path) {
        return columnarUriPattern.replace("{bucket}", bucket).replace("{path}", path);
    }

    /** The settings with secrets masked, for reports. */
    public Map<String, String> printableConf() {
        java.util.TreeMap<String, String> printable = new java.util.TreeMap<>();
        sparkConf.forEach((k, v) -> printable.put(k, isSecret(k) ? "****" : v));
        return printable;
    }

    private static boolean isSecret(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        return k.contains("secret") || k.contains("password") || k.endsWith(".key") && !k.endsWith("access.key");
    }
}
