package io.stork.kafka;

import io.stork.layout.json.ModelJson;
import io.stork.layout.model.PartitionerModel;
import org.apache.kafka.common.config.ConfigException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Loads the layout model once, when the producer configures its partitioner. */
final class ModelLoader {

    /** Where a dataset keeps its model, as the Spark writer saves it (StorkLayouts.MODEL_LOCATION). */
    static final String MODEL_LOCATION = "_stork/layout/model.json";

    private static final String HADOOP_FILE_SYSTEM = "org.apache.hadoop.fs.FileSystem";

    private ModelLoader() {
    }

    static PartitionerModel load(PartitionerSettings settings) {
        return settings.modelFile() != null ? fromFile(settings.modelFile()) : fromDataset(settings);
    }

    static PartitionerModel fromFile(String file) {
        String json;
        try {
            json = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(StorkLayoutPartitioner.MODEL_FILE + ": no such file: " + file);
        } catch (IOException e) {
            throw new ConfigException(StorkLayoutPartitioner.MODEL_FILE + ": cannot read " + file + ": " + e);
        }
        return parse(json, file);
    }

    private static PartitionerModel fromDataset(PartitionerSettings settings) {
        // Hadoop is optional: check for it before touching the class that links against it, so that a producer
        // without it gets the fix in one line rather than a NoClassDefFoundError.
        try {
            Class.forName(HADOOP_FILE_SYSTEM, false, ModelLoader.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ConfigException(StorkLayoutPartitioner.DATASET + " needs Hadoop's FileSystem API on the producer's "
                    + "class path: add org.apache.hadoop:hadoop-client-api and hadoop-client-runtime (3.4.x) and, for "
                    + "stork:// URIs, the stork-hadoop jar; or copy the model to a local file and set "
                    + StorkLayoutPartitioner.MODEL_FILE);
        }
        String location = settings.dataset().replaceAll("/+$", "") + "/" + MODEL_LOCATION;
        return parse(HadoopModelFile.read(location, settings.hadoop()), location);
    }

    static PartitionerModel parse(String json, String where) {
        try {
            return ModelJson.read(json);
        } catch (RuntimeException e) {
            throw new ConfigException("not a Stork layout model: " + where + ": " + e.getMessage());
        }
    }
}
