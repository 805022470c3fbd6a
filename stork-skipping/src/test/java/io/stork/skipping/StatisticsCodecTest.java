package io.stork.skipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.skipping.collect.PartStatisticsCollector;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.spi.IndexTypes;
import io.stork.skipping.index.BloomIndexType;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatisticsCodecTest {

    private static final IndexTypes TYPES = IndexTypes.load(StatisticsCodecTest.class.getClassLoader());

    private static PartStatistics sample() {
        SkippingSpec spec = SkippingSpec.of(List.of(Map.entry("id", ColumnType.LONG), Map.entry("x", ColumnType.DOUBLE),
                Map.entry("price", ColumnType.DECIMAL), Map.entry("city", ColumnType.STRING)),
                Map.of(SkippingSpec.INDEXES, "city:values,id:bloom", SkippingSpec.STRING_PREFIX, "4"), TYPES);
        PartStatisticsCollector c = spec.newCollector(TYPES);
        Object[][] rows = {{3L, 1.5, new BigDecimal("10.50"), "Zürich-Oerlikon"}, {7L, Double.NaN, null, "Bern"},
                {null, -0.0, new BigDecimal("2"), null}};
        for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                c.column(i).add(row[i]);
            }
            c.rowDone();
        }
        return c.finish();
    }

    @Test
    void roundTripsEveryField() throws IOException {
        PartStatistics written = sample();
        PartStatistics read = StatisticsCodec.read(StatisticsCodec.write(written), TYPES).orElseThrow();
        assertThat(read.rows()).isEqualTo(3);
        ColumnStatistics id = read.column("ID").orElseThrow();
        assertThat(id.nullCount()).isEqualTo(1);
        assertThat(id.min()).isEqualTo(3L);
        assertThat(id.max()).isEqualTo(7L);
        assertThat(id.indexes()).containsKey(BloomIndexType.NAME);
        assertThat(Evaluator.mayMatch(new Comparison("id", Op.EQ, 7L), read)).isTrue();
        ColumnStatistics x = read.column("x").orElseThrow();
        assertThat(x.nanCount()).isEqualTo(1);
        assertThat(x.min()).isEqualTo(0.0); // -0.0 is 0.0 in Spark's ordering
        assertThat(read.column("price").orElseThrow().min()).isEqualTo(new BigDecimal("2"));
        assertThat(read.column("price").orElseThrow().max()).isEqualTo(new BigDecimal("10.5"));
        ColumnStatistics city = read.column("city").orElseThrow();
        assertThat(city.min()).isEqualTo("Bern");
        assertThat(city.max()).isEqualTo("Züri");
        assertThat(city.maxIsPrefix()).isTrue();
        assertThat(Evaluator.mayMatch(new Comparison("city", Op.EQ, "Basel"), read)).isFalse(); // value list
        assertThat(Evaluator.mayMatch(new Comparison("city", Op.EQ, "Bern"), read)).isTrue();
    }

    @Test
    void unknownIndexesAndFieldsAreSkippedAndANewerVersionIsNotUsed() throws IOException {
        String json = "{\"v\":1,\"rows\":2,\"future\":[1,{\"a\":2}],\"columns\":{\"n\":{\"type\":\"long\",\"nulls\":0,"
                + "\"min\":1,\"max\":2,\"indexes\":{\"zorder\":{\"cells\":[1,2]}}}}}";
        PartStatistics read = StatisticsCodec.read(json, TYPES).orElseThrow();
        assertThat(read.column("n").orElseThrow().indexes()).isEmpty();
        assertThat(StatisticsCodec.read("{\"v\":2,\"rows\":2,\"columns\":{}}", TYPES)).isEmpty();
    }

    @Test
    void malformedStatisticsAreAnIOException() {
        assertThatThrownBy(() -> StatisticsCodec.read("{\"v\":1,\"rows\":1,\"columns\":{\"n\":{\"type\":\"long\","
                + "\"nulls\":0,\"min\":\"one\",\"max\":2}}}", TYPES)).isInstanceOf(IOException.class)
                .hasMessageContaining("long");
        assertThatThrownBy(() -> StatisticsCodec.read("{\"v\":1,\"columns\":{}}", TYPES))
                .isInstanceOf(IOException.class).hasMessageContaining("row count");
        assertThatThrownBy(() -> StatisticsCodec.read("{\"v\":1,\"rows\":1,\"columns\":{\"s\":{\"type\":\"string\","
                + "\"nulls\":0,\"indexes\":{\"bloom\":7}}}}", TYPES)).isInstanceOf(IOException.class);
    }

    @Test
    void aSaturatedBloomFilterIsNotKept() {
        SkippingSpec spec = SkippingSpec.of(List.of(Map.entry("id", ColumnType.LONG)),
                Map.of(SkippingSpec.INDEXES, "id:bloom", BloomIndexType.ITEMS_KEY, "100"), TYPES);
        PartStatisticsCollector small = spec.newCollector(TYPES);
        PartStatisticsCollector big = spec.newCollector(TYPES);
        for (long i = 0; i < 5000; i++) {
            if (i < 100) {
                small.column(0).add(i);
                small.rowDone();
            }
            big.column(0).add(i);
            big.rowDone();
        }
        assertThat(small.finish().column("id").orElseThrow().indexes()).containsKey(BloomIndexType.NAME);
        assertThat(big.finish().column("id").orElseThrow().indexes()).as("5,000 values in a filter for 100").isEmpty();
    }
}
