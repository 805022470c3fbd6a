package io.stork.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.localstore.LocalStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The README's quick start as a user pastes it: a bucket made by {@code local-store.sh bucket}, then the
 * README's Python block, taken from README.md as written, run by {@code spark-submit} with the runtime jar
 * alone ({@code --jars} and {@code --py-files}) and the bucket's four keys; only the bucket name is changed
 * (each run its own). Then what the block did is checked from the same process: generations, rows per
 * generation, the restore.
 */
class QuickStartProcessIT {

    private static final String MARKER = "<!-- quickstart:python";

    @Test
    void theReadmesQuickStartRunsAsWrittenWithTheRuntimeJarAlone() throws Exception {
        LocalStore.shared();
        String bucket = "qs-" + UUID.randomUUID().toString().substring(0, 8);
        Path work = SparkProcess.workDirectory("quick-start");
        Path repo = Path.of("..").toAbsolutePath().normalize();
        List<String> made = SparkProcess.runTool("bucket", List.of("bash",
                repo.resolve("scripts/local-store.sh").toString(), "bucket", bucket), work);
        assertThat(String.join("\n", made)).contains("bucket " + bucket + " ready");

        String block = quickStartBlock(repo.resolve("README.md")).replace("stork://demo/", "stork://" + bucket + "/");
        String events = "stork://" + bucket + "/events";
        String script = "from pyspark.sql import SparkSession\n"
                + "spark = SparkSession.builder.getOrCreate()\n"
                + "# ---- README.md, quick start ----\n" + block + "\n# ---- checks ----\n"
                + "print('ROWS-NOW %d' % spark.read.parquet('" + events + "').count())\n"
                + "print('ROWS-AT-2 %d' % spark.read.option('versionAsOf', 2).parquet('" + events + "').count())\n"
                + "print('GENERATIONS %d' % Dataset.for_path(spark, '" + events + "').history().count())\n"
                + "print('DONE')\n";
        Path app = work.resolve("quick_start.py");
        Files.writeString(app, script, StandardCharsets.UTF_8);

        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.sql.extensions", "io.stork.spark.StorkSparkExtensions");
        LocalStore local = LocalStore.shared();
        String prefix = "spark.hadoop.fs.stork.bucket." + bucket + ".";
        conf.put(prefix + "api", "s3");
        conf.put(prefix + "endpoint", local.s3Endpoint().toString());
        conf.put(prefix + "access.key", local.s3AccessKey());
        conf.put(prefix + "access.secret", local.s3SecretKey());
        conf.put("spark.ui.enabled", "false");
        List<String> command = new ArrayList<>(List.of(SparkProcess.sparkHome().resolve("bin/spark-submit").toString(),
                "--master", "local[2]", "--jars", SparkProcess.runtimeJar().toString(),
                "--py-files", SparkProcess.runtimeJar().toString()));
        command.addAll(SparkProcess.confArgs(conf));
        command.add(app.toString());
        SparkProcess.Run run = SparkProcess.run("quick-start", command, Map.of(), work);

        String out = String.join("\n", run.stdout());
        // DESCRIBE HISTORY and Dataset.history() printed two generations, then the restore made a third.
        assertThat(out).contains("1000"); // VERSION AS OF 1
        assertThat(run.printed("ROWS-NOW ")).as("after restore(1)").isEqualTo("1000");
        assertThat(run.printed("ROWS-AT-2 ")).isEqualTo("1500");
        assertThat(run.printed("GENERATIONS ")).isEqualTo("3");
    }

    /** The first fenced block after the quick-start marker, without its fences. */
    static String quickStartBlock(Path readme) throws Exception {
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int marker = text.indexOf(MARKER);
        assertThat(marker).as("README.md has the quick start's Python block (" + MARKER + ")").isNotNegative();
        int open = text.indexOf("```python\n", marker);
        int close = text.indexOf("\n```", open + 10);
        return text.substring(open + "```python\n".length(), close + 1);
    }
}
