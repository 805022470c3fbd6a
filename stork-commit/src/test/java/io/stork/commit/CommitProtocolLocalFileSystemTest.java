package io.stork.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protocol over the local file system (it uses only Hadoop's FileSystem API): what each write mode
 * puts in the manifest and on disk. The same protocol against the real store, with call counts, is in
 * stork-spark-tests.
 */
class CommitProtocolLocalFileSystemTest {

    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = SparkSession.builder().master("local[2]").appName("stork-commit-local")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.sources.commitProtocolClass", StorkCommitProtocol.class.getName())
                .getOrCreate();
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static Manifest manifest(Path dataset) throws IOException {
        try (InputStream in = Files.newInputStream(dataset.resolve(PartNames.MANIFEST))) {
            return ManifestCodec.read(in, dataset.toString());
        }
    }

    /** Data files on disk (no checksums, no manifest), relative to the dataset. */
    private static Set<String> dataFiles(Path dataset) throws IOException {
        try (Stream<Path> files = Files.walk(dataset)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> dataset.relativize(f).toString())
                    .filter(f -> !f.startsWith("_") && !PartNames.fileName(f).startsWith("."))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static Set<String> paths(Manifest manifest) {
        return manifest.parts().stream().map(ManifestPart::path).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Dataset<Row> numbers(int from, int to, int partitions) {
        return spark.range(from, to).repartition(partitions).toDF("id");
    }

    @Test
    void eachWriteModeLeavesExactlyTheManifestedPartsOnDisk() throws IOException {
        String out = dir.resolve("numbers").toUri().toString();

        numbers(0, 100, 3).write().format("csv").save(out);
        Manifest first = manifest(dir.resolve("numbers"));
        assertThat(first.generation()).isEqualTo(1);
        assertThat(first.operation()).isEqualTo(Manifest.Operation.CREATE);
        assertThat(first.parts()).hasSize(3).allSatisfy(p -> {
            assertThat(PartNames.isAttemptNamed(p.path())).isTrue();
            assertThat(p.jobId()).isEqualTo(first.jobId());
        });
        assertThat(paths(first)).isEqualTo(dataFiles(dir.resolve("numbers")));
        assertThat(first.totalLength()).isEqualTo(
                dataFiles(dir.resolve("numbers")).stream().mapToLong(f -> dir.resolve("numbers").resolve(f).toFile().length()).sum());
        assertThat(spark.read().format("csv").schema("id long").load(out).count()).isEqualTo(100);

        assertThatThrownBy(() -> numbers(0, 1, 1).write().format("csv").save(out))
                .hasMessageContaining("already exists");

        numbers(100, 150, 2).write().mode(SaveMode.Append).format("csv").save(out);
        Manifest second = manifest(dir.resolve("numbers"));
        assertThat(second.generation()).isEqualTo(2);
        assertThat(second.operation()).isEqualTo(Manifest.Operation.APPEND);
        assertThat(second.parts()).hasSize(5).containsAll(first.parts());
        assertThat(paths(second)).isEqualTo(dataFiles(dir.resolve("numbers")));
        assertThat(spark.read().format("csv").schema("id long").load(out).count()).isEqualTo(150);

        numbers(0, 10, 1).write().mode(SaveMode.Overwrite).format("csv").save(out);
        Manifest third = manifest(dir.resolve("numbers"));
        assertThat(third.generation()).isEqualTo(3);
        assertThat(third.operation()).isEqualTo(Manifest.Operation.OVERWRITE);
        assertThat(third.parts()).hasSize(1);
        assertThat(dataFiles(dir.resolve("numbers"))).as("replaced parts are deleted after the commit")
                .isEqualTo(paths(third));
        assertThat(spark.read().format("csv").schema("id long").load(out).count()).isEqualTo(10);
    }

    @Test
    void partitionByAndDynamicPartitionOverwrite() throws IOException {
        Path dataset = dir.resolve("by-key");
        String out = dataset.toUri().toString();
        numbers(0, 60, 2).selectExpr("id", "id % 3 AS k").write().partitionBy("k").format("parquet").save(out);
        Manifest first = manifest(dataset);
        assertThat(first.parts()).extracting(ManifestPart::directory).contains("k=0", "k=1", "k=2");
        assertThat(paths(first)).isEqualTo(dataFiles(dataset));

        numbers(1000, 1010, 1).selectExpr("id", "1 AS k").write().mode(SaveMode.Overwrite)
                .option("partitionOverwriteMode", "dynamic").partitionBy("k").format("parquet").save(out);
        Manifest second = manifest(dataset);
        assertThat(second.operation()).isEqualTo(Manifest.Operation.DYNAMIC_PARTITION_OVERWRITE);
        assertThat(second.parts().stream().filter(p -> p.directory().equals("k=1")))
                .singleElement().satisfies(p -> assertThat(p.jobId()).isEqualTo(second.jobId()));
        assertThat(second.parts().stream().filter(p -> !p.directory().equals("k=1")).toList())
                .isEqualTo(first.parts().stream().filter(p -> !p.directory().equals("k=1")).toList());
        assertThat(paths(second)).isEqualTo(dataFiles(dataset));
        List<Row> k1 = spark.read().parquet(out).where("k = 1").orderBy("id").collectAsList();
        assertThat(k1).hasSize(10);
        assertThat(k1.get(0).getLong(0)).isEqualTo(1000L);
        assertThat(spark.read().parquet(out).where("k <> 1").count()).isEqualTo(40);

    }

    @Test
    void theDatasetToolFindsAndCleansStrayAttemptsButKeepsOtherFiles() throws IOException {
        Path dataset = dir.resolve("with-strays");
        String out = dataset.toUri().toString();
        numbers(0, 20, 2).write().format("csv").save(out);
        Manifest manifest = manifest(dataset);
        String stray = PartNames.partFileName(1, manifest.jobId(), 77, ".csv");
        Files.writeString(dataset.resolve(stray), "99\n");
        Files.writeString(dataset.resolve("notes.txt"), "kept\n");

        var inspection = DatasetInspection.of(
                org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()).getRaw(),
                new org.apache.hadoop.fs.Path(out));
        assertThat(inspection.present()).hasSize(2);
        assertThat(inspection.missing()).isEmpty();
        assertThat(inspection.strays()).singleElement().satisfies(s -> assertThat(s.getPath().getName()).isEqualTo(stray));
        assertThat(inspection.others()).singleElement().satisfies(s -> assertThat(s.getPath().getName()).isEqualTo("notes.txt"));
        assertThat(inspection.report()).contains("generation 1 (create)", "stray attempt parts (no manifest names them): 1");

        assertThat(DatasetTool.run(new String[] {"clean", "--older-than", "0m",
                "-Dfs.stork.maintenance.retention.check=false", out})).isZero();
        assertThat(Files.exists(dataset.resolve(stray))).isFalse();
        assertThat(Files.exists(dataset.resolve("notes.txt"))).isTrue();
        assertThat(dataFiles(dataset)).containsAll(paths(manifest));
    }
}
