package io.stork.kafka;

import io.stork.layout.gridpocket.Reading;
import io.stork.layout.json.ModelJson;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreStatistics;
import io.stork.store.memory.MemoryStores;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code stork.layout.dataset=stork://bucket/table}: the model the Spark writer saved beside the dataset,
 * read through Stork's Hadoop file system (here over the in-memory store, {@code fs.stork.api=memory}, given
 * as {@code stork.layout.hadoop.fs.stork.api}) in one GET.
 */
class DatasetModelTest {

    private static final String BUCKET = "kafka-unit-dataset";

    @Test
    void theModelSavedBesideADatasetIsLoadedInOneGet() throws IOException {
        List<Reading> readings = GridPocketModels.readings(100, 4);
        KdTreeModel model = GridPocketModels.model(readings, 8);
        Configuration conf = new Configuration();
        conf.set("fs.stork.api", "memory");
        // As StorkLayouts.save writes it: <dataset>/_stork/layout/model.json.
        try (FileSystem fs = FileSystem.newInstance(URI.create("stork://" + BUCKET + "/"), conf);
             OutputStream out = fs.create(new Path("stork://" + BUCKET + "/meters/_stork/layout/model.json"), true)) {
            out.write(ModelJson.write(model).getBytes(StandardCharsets.UTF_8));
        }
        StoreStatistics store = MemoryStores.shared(BUCKET).statistics();
        StatisticsSnapshot before = store.snapshot();

        StorkLayoutPartitioner p = new StorkLayoutPartitioner();
        p.configure(Map.of(StorkLayoutPartitioner.DATASET, "stork://" + BUCKET + "/meters/",
                StorkLayoutPartitioner.VALUE_FORMAT, "csv", StorkLayoutPartitioner.CSV_COLUMNS,
                GridPocketModels.CSV_COLUMNS, StorkLayoutPartitioner.HADOOP_PREFIX + "fs.stork.api", "memory"));

        assertThat(p.model()).isEqualTo(model);
        assertThat(store.snapshot().minus(before).calls()).isEqualTo(Map.of(CallType.GET, 1L));
        String line = readings.get(5).toCsv();
        assertThat(p.partition("t", null, null, line, line.getBytes(StandardCharsets.UTF_8),
                GridPocketModels.cluster("t", 8))).isEqualTo(model.bucketOf(GridPocketModels.keyOfCsv(line)));

        assertThatThrownBy(() -> new StorkLayoutPartitioner().configure(Map.of(StorkLayoutPartitioner.DATASET,
                "stork://" + BUCKET + "/other", StorkLayoutPartitioner.VALUE_FORMAT, "json",
                StorkLayoutPartitioner.HADOOP_PREFIX + "fs.stork.api", "memory")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("stork.layout.dataset: the dataset has no layout model at stork://" + BUCKET
                        + "/other/_stork/layout/model.json (save one with StorkLayouts.save)");
    }
}
