package io.stork.layout.json;

import io.stork.layout.grid.GridBuilder;
import io.stork.layout.grid.GridModel;
import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import io.stork.layout.kdtree.KdTreeBuilder;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.PartitionerModel;
import io.stork.layout.model.Range;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelJsonTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final List<Column> MIXED = List.of(Column.of("temp", ColumnType.DOUBLE),
            Column.of("vid", ColumnType.LONG), Column.of("city", ColumnType.STRING),
            Column.of("date", ColumnType.TIMESTAMP));

    private static Object[] row(Random r) {
        double temp = r.nextInt(10) == 0 ? Double.NaN : -5 + 40 * r.nextDouble();
        return new Object[] {temp, (long) r.nextInt(100_000), "city" + r.nextInt(40),
                1_767_225_600_000_000L + r.nextInt(1_000_000) * 900_000_000L};
    }

    @Test
    void aKdTreeReadsBackEqual_andRoutesTheSame() {
        Random r = new Random(21);
        List<Object[]> sample = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            sample.add(row(r));
        }
        QueryHistory history = QueryHistory.of(100, List.of(
                QueryRecord.of(NOW - 1000, Map.of("temp", Range.of(10.5, 20.0), "city", Range.of("city1", "city2"))),
                QueryRecord.of(NOW, Map.of("vid", Range.of(null, 5000L)))));
        KdTreeModel model = KdTreeBuilder.of(MIXED, 13).withHistory(history, Duration.ofHours(6), NOW).build(sample);

        String json = ModelJson.write(model);
        PartitionerModel back = ModelJson.read(json);

        assertThat(back).isEqualTo(model);
        assertThat(ModelJson.write(back)).isEqualTo(json);
        assertThat(back.sortColumns()).isEqualTo(model.sortColumns());
        assertThat(back.history().queries()).isEqualTo(2);
        assertThat(back.history().columnWeights()).containsOnlyKeys("temp", "city", "vid");
        // The summary names columns and weights, not the queries' constants.
        assertThat(JsonValues.object(JsonValues.object(JsonValues.parse(json), "m").get("history"), "h"))
                .containsOnlyKeys("queries", "oldest", "newest", "halfLifeMillis", "builtAt", "columnWeights");
        for (int i = 0; i < 2000; i++) {
            Object[] key = row(r);
            assertThat(back.bucketOf(key)).isEqualTo(model.bucketOf(key));
        }
    }

    @Test
    void aGridReadsBackEqual_andRoutesTheSame() {
        GridModel grid = GridBuilder.of("lat", "lon", 1, 24).area(41.3, 51.1, -5.2, 9.6).build();
        PartitionerModel back = ModelJson.read(ModelJson.write(grid));
        assertThat(back).isEqualTo(grid);
        Random r = new Random(22);
        for (int i = 0; i < 2000; i++) {
            Object[] key = {41 + 10 * r.nextDouble(), -5 + 15 * r.nextDouble()};
            assertThat(back.bucketOf(key)).isEqualTo(grid.bucketOf(key));
        }
    }

    @Test
    void aHistoryReadsBackEqual() {
        QueryHistory h = QueryHistory.of(3, List.of(
                QueryRecord.of(1, Map.of("lat", Range.of(43.5, 43.6))),
                QueryRecord.of(2, Map.of("date", Range.of(null, 1_767_225_600L), "city", Range.of("Lyon", "Lyon"))),
                QueryRecord.of(3, Map.of("lon", Range.of(1.0, null))),
                QueryRecord.of(4, Map.of("lon", Range.of(2.0, 3.0)))));
        assertThat(h.size()).isEqualTo(3); // the oldest dropped past the capacity
        assertThat(h.queries().get(0).timeMillis()).isEqualTo(2);
        assertThat(HistoryJson.read(HistoryJson.write(h))).isEqualTo(h);
    }

    @Test
    void aHistoryIsBoundedByDecayedWeightToo() {
        QueryHistory h = QueryHistory.of(100, List.of(QueryRecord.of(0, Map.of("lat", Range.of(1.0, 2.0))),
                QueryRecord.of(10 * 3_600_000L, Map.of("lat", Range.of(1.0, 2.0)))));
        // One hour half-life: the first query weighs 2^-10 < 0.01 at the second's time.
        assertThat(h.prune(10 * 3_600_000L, 3_600_000L, 0.01).size()).isEqualTo(1);
    }

    @Test
    void badSavedFormsFailWithOneLine() {
        assertThatThrownBy(() -> ModelJson.read("{\"format\":\"stork-layout\",\"version\":1,\"kind\":\"kdtree\","
                + "\"columns\":[{\"name\":\"a\",\"type\":\"decimal\"}],\"history\":{}}"))
                .hasMessage("unknown column type 'decimal' (long, double, timestamp, string)");
        assertThatThrownBy(() -> ModelJson.read("{\"format\":\"x\"}"))
                .hasMessage("not a version 1 layout model: format x, version null");
        assertThatThrownBy(() -> ModelJson.read("{")).hasMessageStartingWith("not valid JSON");
        assertThatThrownBy(() -> ModelJson.read("{\"format\":\"stork-layout\",\"version\":1,\"kind\":\"kdtree\","
                + "\"columns\":[{\"name\":\"a\",\"type\":\"long\"}],\"history\":{\"queries\":0,\"oldest\":0,"
                + "\"newest\":0,\"halfLifeMillis\":0,\"builtAt\":0,\"columnWeights\":{}},\"buckets\":1,"
                + "\"tree\":{\"bucket\":0,\"rows\":0,\"box\":null},\"sortBy\":[\"b\"]}"))
                .hasMessage("sortBy names b, not a key column of [a]");
    }

    @Test
    void aTreeSortedInItsKeyOrderSavesNoSortBy_anotherOrderIsKept() {
        List<Column> key = List.of(Column.of("t", ColumnType.LONG), Column.of("m", ColumnType.LONG));
        List<Object[]> sample = new ArrayList<>();
        for (long t = 0; t < 200; t++) {
            for (long m = 0; m < 20; m++) {
                sample.add(new Object[] {t, m});
            }
        }
        KdTreeModel byMeter = KdTreeBuilder.of(key, 8).build(sample);
        assertThat(byMeter.sortColumns()).extracting(Column::name).containsExactly("m", "t");
        assertThat(ModelJson.write(byMeter)).contains("\"sortBy\":[\"m\",\"t\"]");
        assertThat(ModelJson.read(ModelJson.write(byMeter)).sortColumns()).isEqualTo(byMeter.sortColumns());

        KdTreeModel keyOrder = new KdTreeModel(key, 8, byMeter.root(), byMeter.history());
        assertThat(ModelJson.write(keyOrder)).doesNotContain("sortBy");
        assertThat(ModelJson.read(ModelJson.write(keyOrder)).sortColumns()).isEqualTo(key);
    }
}
