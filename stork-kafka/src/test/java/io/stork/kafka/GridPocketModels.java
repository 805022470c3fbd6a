package io.stork.kafka;

import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.layout.gridpocket.Reading;
import io.stork.layout.json.ModelJson;
import io.stork.layout.kdtree.KdTreeBuilder;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.PartitionerModel;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The tests' data and model: GridPocket readings and a k-d tree over (date, type, lat, lon) built from them. */
final class GridPocketModels {

    static final long START = 1_767_225_600L; // 2026-01-01T00:00:00Z
    static final List<Column> KEY = List.of(Column.of("date", ColumnType.LONG), Column.of("type", ColumnType.STRING),
            Column.of("lat", ColumnType.DOUBLE), Column.of("lon", ColumnType.DOUBLE));
    static final String CSV_COLUMNS = String.join(",", Reading.COLUMNS);

    private GridPocketModels() {
    }

    static List<Reading> readings(int meters, int steps) {
        return new GridPocketGenerator(42, meters, START, steps).readingList();
    }

    /** A k-d tree built from {@link #sample}, as the Spark writer builds one from a sample of the rows. */
    static KdTreeModel model(List<Reading> readings, int buckets) {
        return KdTreeBuilder.of(KEY, buckets).build(sample(readings));
    }

    /**
     * The keys of every third reading: a third of the rows, of every meter and time (readings come time-major,
     * and a stride that divides the number of meters would keep some meters only).
     */
    static List<Object[]> sample(List<Reading> readings) {
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < readings.size(); i += 3) {
            sample.add(key(readings.get(i)));
        }
        return sample;
    }

    static Object[] key(Reading r) {
        return new Object[] {r.date(), r.type(), r.lat(), r.lon()};
    }

    /**
     * The key of a GridPocket CSV line, parsed here with String.split and the JDK's parsers: independent of
     * the partitioner's own CSV scanner.
     */
    static Object[] keyOfCsv(String line) {
        String[] f = line.strip().split(",");
        return new Object[] {Long.parseLong(f[0]), f[4], Double.parseDouble(f[10]), Double.parseDouble(f[11])};
    }

    /** A JSON object with the reading's fields, exact doubles, a nested object and an array among them. */
    static String json(Reading r) {
        return String.format(Locale.ROOT, "{\"vid\":%d,\"meta\":{\"lat\":\"not this one\",\"tags\":[1,2]},"
                        + "\"lon\":%s,\"city\":\"%s\",\"readings\":[%s,%s],\"type\":\"%s\",\"lat\":%s,\"date\":%d,"
                        + "\"temp\":%s}", r.vid(), Double.toString(r.lon()), r.city(), Double.toString(r.sumHC()),
                Double.toString(r.sumHP()), r.type(), Double.toString(r.lat()), r.date(), Double.toString(r.temp()));
    }

    static Path save(PartitionerModel model, Path dir) throws IOException {
        Path file = dir.resolve("model.json");
        Files.writeString(file, ModelJson.write(model), StandardCharsets.UTF_8);
        return file;
    }

    /** The metadata a producer hands its partitioner: one node, {@code partitions} partitions of {@code topic}. */
    static Cluster cluster(String topic, int partitions) {
        Node node = new Node(1, "127.0.0.1", 9092);
        List<PartitionInfo> infos = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            infos.add(new PartitionInfo(topic, p, node, new Node[] {node}, new Node[] {node}));
        }
        return new Cluster("test", List.of(node), infos, Set.of(), Set.of());
    }
}
