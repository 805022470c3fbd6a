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

/**
 * {@code inspect} shows a dataset's layout model and how well its parts separate over the model's key
 * columns, {@code stats} per column; maintenance never takes the model for garbage.
 */
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

    /** Four quadrants over (lat, lon) with statistics, one part without: separate as boxes, twice per column. */
    @Test
    void inspectAndStatsShowHowTheBoxesSeparate() throws Exception {
        Path dataset = dir.resolve("quadrants");
        Files.createDirectories(dataset);
        String job = UUID.randomUUID().toString();
        List<ManifestPart> parts = new ArrayList<>();
        int task = 0;
        for (double lat : new double[] {40, 45}) {
            for (double lon : new double[] {0, 5}) {
                String stats = String.format(java.util.Locale.ROOT, "{\"v\":1,\"rows\":10,\"columns\":{"
                        + "\"lat\":{\"type\":\"double\",\"nulls\":0,\"min\":%s,\"max\":%s},"
                        + "\"lon\":{\"type\":\"double\",\"nulls\":0,\"min\":%s,\"max\":%s}}}",
                        lat, lat + 4, lon, lon + 4);
                parts.add(part(dataset, job, task++, stats));
            }
        }
        parts.add(part(dataset, job, task, null)); // written without statistics
        Manifest manifest = new Manifest(1, "test", job, 1, Manifest.Operation.CREATE, Instant.now(), Instant.now(),
                parts);
        try (OutputStream out = Files.newOutputStream(dataset.resolve(PartNames.MANIFEST))) {
            ManifestCodec.write(manifest, out);
        }
        FileSystem raw = FileSystem.getLocal(new Configuration()).getRaw();
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(dataset.toUri());
        assertThat(DatasetInspection.of(raw, root).report()).as("no model: nothing to measure against")
                .doesNotContain("separation");
        assertThat(stats(raw, root, List.of())).contains("separation per column, each column with min/max (5 parts)")
                .containsPattern("\nlat\\s+4\\s+2\\.00\\s+44\\.4%\n").doesNotContain("box (");

        var model = KdTreeBuilder.of(List.of(Column.of("lat", ColumnType.DOUBLE), Column.of("lon", ColumnType.DOUBLE)),
                4).build(List.<Object[]>of(new Object[] {40.0, 0.0}, new Object[] {44.0, 9.0},
                new Object[] {49.0, 4.0}, new Object[] {45.0, 5.0}));
        Path modelFile = dataset.resolve(DatasetInspection.LAYOUT_MODEL);
        Files.createDirectories(modelFile.getParent());
        Files.writeString(modelFile, ModelJson.write(model), StandardCharsets.UTF_8);
        // Per column the extent is 9 (40 to 49, 0 to 9), each part's range 4: 4/9, and (4/9)² of the box.
        assertThat(DatasetInspection.of(raw, root).report()).contains("  layout: kdtree over (lat double, lon double)",
                "  separation over (lat, lon): a point lies in 1.00 of 4 parts' boxes on average (1 = disjoint), a box "
                        + "spans 19.8% of the extent; 1 parts without min/max\n",
                "    per column: lat 2.00 (spans 44.4%), lon 2.00 (spans 44.4%)\n");
        assertThat(stats(raw, root, List.of())).contains("layout: kdtree over (lat double, lon double)",
                "separation over (lat, lon), the layout's key columns: 4 of 5 parts with min/max on every one")
                .containsPattern("\nbox \\(lat, lon\\)\\s+4\\s+1\\.00\\s+19\\.8%\n");
        assertThat(stats(raw, root, List.of("LON", "nothing"))).contains(
                "separation over (LON, nothing), the columns named: 0 of 5 parts with min/max on every one")
                .containsPattern("\nLON\\s+4\\s+2\\.00\\s+44\\.4%\n").containsPattern("\nnothing\\s+0\\s+-\\s+-\n");
    }

    private static ManifestPart part(Path dataset, String job, int task, String stats) throws java.io.IOException {
        String name = PartNames.partFileName(task, job, 0, ".csv");
        Files.writeString(dataset.resolve(name), "1\n");
        return new ManifestPart(name, 2, null, job, task, 0, 0, 1L, stats, 1);
    }

    private static String stats(FileSystem raw, org.apache.hadoop.fs.Path root, List<String> columns) throws Exception {
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        assertThat(DatasetStatistics.print(raw, root, columns, new java.io.PrintStream(printed, true,
                StandardCharsets.UTF_8))).isZero();
        return printed.toString(StandardCharsets.UTF_8);
    }
}
