package io.stork.kafka;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.config.ConfigException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Reads a dataset's model through Hadoop's FileSystem API (one GET on Stork). The only class that links
 * against Hadoop: loaded only when {@code stork.layout.dataset} is set and Hadoop was found.
 */
final class HadoopModelFile {

    private HadoopModelFile() {
    }

    static String read(String location, Map<String, String> settings) {
        Configuration conf = new Configuration();
        settings.forEach(conf::set);
        Path path = new Path(location);
        try {
            // A private instance, closed after the one read: the producer keeps no Hadoop client around.
            try (FileSystem fs = FileSystem.newInstance(path.toUri(), conf); InputStream in = fs.open(path)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (FileNotFoundException e) {
            throw new ConfigException(StorkLayoutPartitioner.DATASET + ": the dataset has no layout model at " + location
                    + " (save one with StorkLayouts.save)");
        } catch (IOException e) {
            throw new ConfigException(StorkLayoutPartitioner.DATASET + ": cannot read " + location + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getName()));
        }
    }
}
