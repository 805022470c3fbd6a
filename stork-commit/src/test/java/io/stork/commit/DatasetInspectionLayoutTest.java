package io.stork.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.layout.json.ModelJson;
import io.stork.layout.kdtree.KdTreeBuilder;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code inspect} shows a dataset's layout model, and maintenance never takes the model for garbage. */
class DatasetInspectionLayoutTest {

    @TempDir
    Path dir;

    @Test
    void inspectShowsTheLayoutModelAndCleanKeepsIt() throws Exception {
        Path dataset = dir.resolve("laid-out");
        String job = UUID.randomUUID().toString();
        String part = PartNames.partFileName(0, job, 0, ".csv");
        Files.createDirectories(dataset);
        Files.writeString(dataset.resolve(part), "1\n");
        Manifest manifest = new Manifest(1, "test", job, 1, Manifest.Operation.CREATE, Instant.now(), Instant.now(),
                List.of(new ManifestPart(part, 2, null, job, 0, 0, 0, 1L, null)));
        try (OutputStream out = Files.newOutputStream(dataset.resolve(PartNames.MANIFEST))) {
            ManifestCodec.write(manifest, out);
        }
        List<Object[]> sample = new ArrayList<>();
        for (long i = 0; i < 100; i++) {
            sample.add(new Object[] {i % 10 * 1.0, i / 10 * 1.0});
        }
        var model = KdTreeBuilder.of(List.of(Column.of("lat", ColumnType.DOUBLE), Column.of("lon", ColumnType.DOUBLE)),
                4).build(sample);
        Path modelFile = dataset.resolve(DatasetInspection.LAYOUT_MODEL);
        Files.createDirectories(modelFile.getParent());
        Files.writeString(modelFile, ModelJson.write(model), StandardCharsets.UTF_8);

        FileSystem raw = FileSystem.getLocal(new Configuration()).getRaw();
        DatasetInspection inspection = DatasetInspection.of(raw, new org.apache.hadoop.fs.Path(dataset.toUri()));
        assertThat(inspection.report())
                .contains("  layout: kdtree over (lat double, lon double), 4 buckets, built without query history\n");

        assertThat(DatasetTool.run(new String[] {"clean", "--older-than", "0s",
                "-Dfs.stork.maintenance.retention.check=false", dataset.toUri().toString()})).isZero();
        assertThat(modelFile).as("the model is the dataset's, not bookkeeping to clean").exists();

        Files.writeString(modelFile, "{\"kind\":", StandardCharsets.UTF_8);
        assertThat(DatasetInspection.of(raw, new org.apache.hadoop.fs.Path(dataset.toUri())).report())
                .containsPattern("  layout: unreadable model _stork/layout/model.json \\(.+\\)\n");
    }
}
