package io.stork.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stork.localstore.LocalStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Stork's SQL and Python Dataset API as users run them, with the runtime jar alone: a pyspark application
 * through {@code spark-submit --jars/--py-files} ({@code from stork import Dataset}), and a SQL script
 * through {@code spark-sql -f} (Spark's own SQL command line over a catalog table on Stork).
 */
class DatasetApiProcessIT {

    private static final String EXTENSIONS = "io.stork.spark.StorkSparkExtensions";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String id() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    /** A bucket made through the store's Swift API (a container is the S3 API's bucket too). */
    private static void createBucket(String bucket) throws Exception {
        LocalStore local = LocalStore.shared();
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<Void> auth = http.send(HttpRequest.newBuilder(local.swiftAuthUrl())
                .header("X-Auth-User", local.swiftUser()).header("X-Auth-Key", local.swiftKey()).GET().build(),
                HttpResponse.BodyHandlers.discarding());
        String storage = auth.headers().firstValue("X-Storage-Url").orElseThrow();
        String token = auth.headers().firstValue("X-Auth-Token").orElseThrow();
        HttpResponse<Void> created = http.send(HttpRequest.newBuilder(URI.create(storage + "/" + bucket))
                .header("X-Auth-Token", token).PUT(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding());
        assertThat(created.statusCode()).as("PUT container " + bucket).isBetween(200, 299);
    }

    private static Map<String, String> conf(String bucket, String api) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.sql.extensions", EXTENSIONS);
        conf.put("spark.stork.layout.history.flushInterval", "1h");
        conf.put("spark.ui.enabled", "false");
        // VACUUM below the maintenance floor on purpose (a dry run): the check is the user's to turn off.
        conf.put("spark.hadoop.fs.stork.maintenance.retention.check", "false");
        conf.putAll(SparkProcess.bucketConf(bucket, api));
        return conf;
    }

    private static Map<String, JsonNode> results(SparkProcess.Run run) throws Exception {
        Map<String, JsonNode> results = new LinkedHashMap<>();
        for (String line : run.stdout()) {
            if (line.startsWith("RESULT ")) {
                String[] parts = line.split(" ", 3);
                results.put(parts[1], JSON.readTree(parts[2]));
            }
        }
        return results;
    }

    @Test
    void thePythonDatasetApiInAPysparkApplicationWithTheRuntimeJar() throws Exception {
        String bucket = "dsapi-" + id();
        createBucket(bucket);
        String path = "stork://" + bucket + "/events";
        Path work = SparkProcess.workDirectory("dataset-api-python");
        List<String> command = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit").toString(),
                "--master", "local[2]", "--jars", SparkProcess.runtimeJar().toString(),
                "--py-files", SparkProcess.runtimeJar().toString()));
        command.addAll(SparkProcess.confArgs(conf(bucket, "swift")));
        command.addAll(List.of(Path.of("src/test/resources/python/dataset_api.py").toAbsolutePath().toString(), path));
        Map<String, JsonNode> r = results(SparkProcess.run("dataset-api", command, Map.of(), work));

        assertThat(r.get("history").toString()).matches("\\[\\[3,\"overwrite\",1,\\d+,1,3],\\[2,\"append\",3,\\d+,1,0],"
                + "\\[1,\"create\",2,\\d+,2,0]]");
        assertThat(r.get("detail").get("format").asText()).isEqualTo("parquet");
        assertThat(r.get("detail").get("generation").asLong()).isEqualTo(3);
        assertThat(r.get("detail").get("schema").asText()).isEqualTo("id BIGINT,k BIGINT");
        JsonNode files = r.get("files");
        assertThat(files).hasSize(1);
        assertThat(files.get(0).get(1).asLong()).isEqualTo(r.get("detail").get("bytes").asLong());
        assertThat(files.get(0).get(2).asText()).as("the part's ETag").isNotBlank();
        assertThat(files.get(0).get(3).asLong()).isEqualTo(3);
        assertThat(files.get(0).get(4).asText()).isEqualTo("100");
        assertThat(r.get("files1")).hasSize(2);
        assertThat(r.get("changes")).hasSize(5); // generation 2: +1; generation 3: -3, +1
        assertThat(r.get("version1").asLong()).isEqualTo(10);
        assertThat(r.get("count").asLong()).isEqualTo(1);
        // What skipping did for q.count(), asked after it of q and of the session: one part, the only one, read.
        for (String asked : List.of("reports", "last_report")) {
            assertThat(r.get(asked)).as(asked).hasSize(1);
            assertThat(r.get(asked).get(0).get("objects_listed").asLong()).isEqualTo(1);
            assertThat(r.get(asked).get(0).get("filter").asText()).contains("101");
        }
        assertThat(r.get("restore").toString()).isEqualTo("[1,4,2]");
        assertThat(r.get("after_restore").asLong()).isEqualTo(10);
        // Generation 4 names generation 1's parts: generation 2's and 3's parts were dropped (2).
        assertThat(r.get("vacuum_dry_run")).hasSize(2).allSatisfy(row -> {
            assertThat(row.get(1).asText()).isEqualTo("dropped-part");
            assertThat(row.get(2).asBoolean()).isFalse();
        });
        assertThat(r.get("restore99").asText()).contains("generation 99").doesNotContain("Traceback");
    }

    @Test
    void sqlCommandsThroughSparkSqlOnACatalogTableOnStork() throws Exception {
        String bucket = "dssql-" + id();
        createBucket(bucket);
        String path = "stork://" + bucket + "/sales";
        Path work = SparkProcess.workDirectory("dataset-api-sql");
        String script = String.join("\n",
                "CREATE TABLE sales USING parquet LOCATION '" + path + "' AS SELECT id, id % 3 AS k FROM range(0, 10);",
                "INSERT INTO sales SELECT id, id % 3 FROM range(10, 15);",
                "INSERT OVERWRITE TABLE sales SELECT id, id % 3 FROM range(100, 103);",
                "DESCRIBE HISTORY sales;",
                "SELECT 'V1', count(*) FROM sales VERSION AS OF 1;",
                "SELECT 'FILES', count(*), sum(size) FROM stork_files('" + path + "');",
                "DESCRIBE DETAIL stork.`" + path + "`;",
                "RESTORE TABLE sales TO VERSION AS OF 2;",
                "REFRESH TABLE sales;",
                "SELECT 'NOW', count(*) FROM sales;",
                "VACUUM sales RETAIN 0 HOURS DRY RUN;",
                "SELECT 'DONE';", "");
        Path file = Files.writeString(work.resolve("commands.sql"), script);
        List<String> command = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-sql").toString(),
                "--master", "local[2]", "--jars", SparkProcess.runtimeJar().toString()));
        command.addAll(SparkProcess.confArgs(conf(bucket, "s3")));
        command.addAll(List.of("--conf", "spark.sql.warehouse.dir=" + work.resolve("warehouse").toUri(),
                "--conf", "spark.hadoop.javax.jdo.option.ConnectionURL=jdbc:derby:;databaseName="
                        + work.resolve("metastore") + ";create=true", "-f", file.toString()));
        SparkProcess.Run run = SparkProcess.run("spark-sql", command, Map.of(), work);
        List<String> out = run.stdout();
        System.out.println(String.join("\n", out));
        assertThat(out).contains("V1\t10", "NOW\t15");
        assertThat(out).anyMatch(l -> l.matches("3\t[^\t]+\toverwrite\t.*"))
                .anyMatch(l -> l.matches("1\t[^\t]+\tcreate\t.*"));
        // Generation 3's parts (stork_files), then generation 2's named again by generation 4 (RESTORE), and
        // generation 3's parts listed by VACUUM's dry run as dropped.
        String files = out.stream().filter(l -> l.startsWith("FILES\t")).findFirst().orElseThrow();
        int parts = Integer.parseInt(files.split("\t")[1]);
        assertThat(parts).isPositive();
        assertThat(out).anyMatch(l -> l.startsWith("parquet\t" + path + "\t3\t"));
        String secondParts = out.stream().filter(l -> l.matches("2\t[^\t]+\tappend\t.*")).findFirst().orElseThrow()
                .split("\t")[4];
        assertThat(out).anyMatch(l -> l.startsWith("2\t4\t" + secondParts + "\t"));
        assertThat(out.stream().filter(l -> l.contains("\tdropped-part\tfalse")).count()).isEqualTo(parts);
    }
}
