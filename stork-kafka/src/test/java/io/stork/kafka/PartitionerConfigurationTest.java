package io.stork.kafka;

import io.stork.layout.gridpocket.Reading;
import io.stork.layout.json.ModelJson;
import io.stork.layout.kdtree.KdTreeModel;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where the model comes from and the settings' errors, each a ConfigException naming the keys involved. */
class PartitionerConfigurationTest {

    @TempDir
    static Path dir;
    private static List<Reading> readings;
    private static KdTreeModel model;
    private static Path modelFile;

    @BeforeAll
    static void model() throws IOException {
        readings = GridPocketModels.readings(100, 4);
        model = GridPocketModels.model(readings, 8);
        modelFile = GridPocketModels.save(model, dir);
    }

    @Test
    void exactlyOneModelSource() {
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "json")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("set exactly one of stork.layout.model.file (a local model file) and stork.layout.dataset "
                        + "(a dataset URI), not neither");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "json",
                StorkLayoutPartitioner.MODEL_FILE, modelFile.toString(), StorkLayoutPartitioner.DATASET, "stork://b/t")))
                .isInstanceOf(ConfigException.class)
                .hasMessageEndingWith("not both");
    }

    @Test
    void formatAndCsvSettingsAreChecked() {
        String file = modelFile.toString();
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("stork.layout.value.format");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file,
                StorkLayoutPartitioner.VALUE_FORMAT, "avro")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("stork.layout.value.format")
                .hasMessageContaining("avro");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file,
                StorkLayoutPartitioner.VALUE_FORMAT, "csv")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("stork.layout.csv.columns must name the CSV's columns in order when "
                        + "stork.layout.value.format=csv");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file,
                StorkLayoutPartitioner.VALUE_FORMAT, "csv", StorkLayoutPartitioner.CSV_COLUMNS, "date,type,lat,latitude")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("the CSV columns [date, type, lat, latitude] lack the layout's key column 'lon'");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file,
                StorkLayoutPartitioner.VALUE_FORMAT, "csv", StorkLayoutPartitioner.CSV_COLUMNS, "date,type,lat,lon",
                StorkLayoutPartitioner.CSV_DELIMITER, ";;")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("stork.layout.csv.delimiter");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file,
                StorkLayoutPartitioner.VALUE_FORMAT, "json", StorkLayoutPartitioner.PARTITIONS_FOLD, "maybe")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("stork.layout.partitions.fold");
    }

    @Test
    void aMissingOrBrokenModelFileIsNamed() throws IOException {
        Path missing = dir.resolve("none.json");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, missing.toString(),
                StorkLayoutPartitioner.VALUE_FORMAT, "json")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("stork.layout.model.file: no such file: " + missing);
        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"format\":\"parquet\"}");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, broken.toString(),
                StorkLayoutPartitioner.VALUE_FORMAT, "json")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("not a Stork layout model: " + broken + ": ");
    }

    @Test
    void aDatasetsModelIsReadThroughHadoop_hadoopSettingsPassedWithoutThePrefix() throws IOException {
        Path dataset = dir.resolve("table");
        Path location = dataset.resolve("_stork/layout");
        Files.createDirectories(location);
        Files.writeString(location.resolve("model.json"), ModelJson.write(model));
        Map<String, Object> configs = new HashMap<>(Map.of(StorkLayoutPartitioner.DATASET, dataset.toUri().toString(),
                StorkLayoutPartitioner.VALUE_FORMAT, "object",
                StorkLayoutPartitioner.HADOOP_PREFIX + "fs.file.impl.disable.cache", "true"));
        StorkLayoutPartitioner p = configure(configs);
        assertThat(p.model()).isEqualTo(model);

        PartitionerSettings settings = PartitionerSettings.parse(configs);
        assertThat(settings.hadoop()).containsExactly(Map.entry("fs.file.impl.disable.cache", "true"));

        Path empty = dir.resolve("empty");
        assertThatThrownBy(() -> configure(Map.of(StorkLayoutPartitioner.DATASET, empty.toUri().toString(),
                StorkLayoutPartitioner.VALUE_FORMAT, "object")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("stork.layout.dataset: the dataset has no layout model at ")
                .hasMessageContaining("empty/_stork/layout/model.json");
    }

    /** A producer without Hadoop, as most are: the partitioner and its dependencies in a loader that has no Hadoop. */
    @Test
    void aDatasetWithoutHadoopOnTheClassPathFailsInOneLineNamingWhatToAdd() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("hadoop")) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        try (URLClassLoader noHadoop = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> noHadoop.loadClass("org.apache.hadoop.fs.FileSystem"))
                    .isInstanceOf(ClassNotFoundException.class);
            Object partitioner = noHadoop.loadClass(StorkLayoutPartitioner.class.getName()).getConstructor().newInstance();
            Map<String, Object> configs = Map.of(StorkLayoutPartitioner.DATASET, "stork://b/t",
                    StorkLayoutPartitioner.VALUE_FORMAT, "json");
            assertThatThrownBy(() -> partitioner.getClass().getMethod("configure", Map.class).invoke(partitioner, configs))
                    .isInstanceOf(InvocationTargetException.class)
                    .cause()
                    .satisfies(e -> assertThat(e.getClass().getName()).isEqualTo(ConfigException.class.getName()))
                    .hasMessage("stork.layout.dataset needs Hadoop's FileSystem API on the producer's class path: add "
                            + "org.apache.hadoop:hadoop-client-api and hadoop-client-runtime (3.4.x) and, for stork:// "
                            + "URIs, the stork-hadoop jar; or copy the model to a local file and set "
                            + "stork.layout.model.file");
        }
    }

    @Test
    void hadoopSettingsAreNeverShown() {
        PartitionerSettings s = PartitionerSettings.parse(Map.of(StorkLayoutPartitioner.DATASET, "stork://b/t",
                StorkLayoutPartitioner.VALUE_FORMAT, "json",
                StorkLayoutPartitioner.HADOOP_PREFIX + "fs.stork.bucket.b.secret.key", "s3cr3t"));
        assertThat(s.toString()).contains("fs.stork.bucket.b.secret.key").doesNotContain("s3cr3t");
    }

    private static StorkLayoutPartitioner configure(Map<String, ?> configs) {
        StorkLayoutPartitioner p = new StorkLayoutPartitioner();
        p.configure(configs);
        return p;
    }
}
