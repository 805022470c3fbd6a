package io.stork.skipping;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.manifest.segment.StatisticsBlocks;
import io.stork.skipping.spi.IndexTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatisticsBlockTest {

    private final StatisticsBlock block = new StatisticsBlock();

    @Test
    void theServiceLoaderFindsTheBlockCodec() {
        assertThat(StatisticsBlocks.codec()).get().isInstanceOf(StatisticsBlock.class);
    }

    @Test
    void partsWithDifferentColumnsNoneAndForeignStatisticsRoundTrip() {
        List<String> json = Arrays.asList(
                "{\"v\":1,\"rows\":3,\"columns\":{\"a\":{\"type\":\"long\",\"nulls\":1,\"min\":-5,\"max\":9223372036854775807}}}",
                null,
                "{\"v\":1,\"rows\":0,\"columns\":{}}",
                // a column that first appears here: the earlier parts have none
                "{\"v\":1,\"rows\":2,\"columns\":{\"b\":{\"type\":\"string\",\"nulls\":0,\"min\":\"Zürich\","
                        + "\"max\":\"日本\",\"maxPrefix\":true,\"indexes\":{\"values\":[\"Zürich\",\"日本\"]}},"
                        + "\"a\":{\"type\":\"long\",\"nulls\":2}}}",
                "{\"v\":1,\"rows\":4,\"columns\":{\"d\":{\"type\":\"double\",\"nulls\":0,\"nan\":2,\"min\":\"-Infinity\","
                        + "\"max\":1.5},\"m\":{\"type\":\"decimal\",\"nulls\":0,\"min\":\"-1.50\",\"max\":\"10.00\"},"
                        + "\"t\":{\"type\":\"boolean\",\"nulls\":0,\"min\":false,\"max\":true}}}",
                // kept as JSON: a newer version, an unknown field, an index of a plug-in this reader lacks
                "{\"v\":2,\"rows\":1,\"columns\":{}}",
                "{\"v\":1,\"rows\":1,\"columns\":{\"a\":{\"type\":\"long\",\"nulls\":0,\"min\":1,\"max\":1,\"hll\":7}}}",
                "{\"v\":1,\"rows\":1,\"columns\":{\"a\":{\"type\":\"long\",\"nulls\":0,\"min\":1,\"max\":1,"
                        + "\"indexes\":{\"prefixes\":[\"x\"]}}}}");
        List<String> decoded = block.decode(block.encode(json));

        assertThat(decoded).hasSize(json.size());
        for (int i = 0; i < json.size(); i++) {
            if (json.get(i) == null) {
                assertThat(decoded.get(i)).isNull();
            } else {
                assertThat(normalize(decoded.get(i))).as("part %d", i).isEqualTo(normalize(json.get(i)));
            }
        }
        assertThat(decoded.get(5)).isEqualTo(json.get(5)); // kept verbatim
        assertThat(decoded.get(6)).isEqualTo(json.get(6));
    }

    @Test
    void aBlockIsFarSmallerThanItsJson() throws java.io.IOException {
        List<String> json = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            StringBuilder s = new StringBuilder("{\"v\":1,\"rows\":2,\"columns\":{");
            for (int c = 0; c < 10; c++) {
                s.append(c == 0 ? "" : ",").append("\"c").append(c).append("\":{\"type\":\"long\",\"nulls\":0,\"min\":")
                        .append(i * 1000L + c * 10).append(",\"max\":").append(i * 1000L + c * 10 + 1).append('}');
            }
            json.add(s.append("}}").toString());
        }
        byte[] bytes = block.encode(json);
        long jsonBytes = json.stream().mapToLong(String::length).sum();
        assertThat(bytes.length).as("block bytes vs %d of JSON", jsonBytes).isLessThan((int) (jsonBytes / 5));
        StatisticsTable table = StatisticsTable.of(bytes, IndexTypes.of());
        assertThat(block.decode(bytes)).hasSize(1000);
        assertThat(table.size()).isEqualTo(1000);
        assertThat(table.hasStatistics(999)).isTrue();
    }

    /** JSON compared by meaning: statistics read and written again by the codec. */
    private static String normalize(String json) {
        try {
            IndexTypes types = IndexTypes.load(StatisticsBlockTest.class.getClassLoader());
            return StatisticsCodec.read(json, types).map(StatisticsCodec::write).orElse(json);
        } catch (java.io.IOException e) {
            return json;
        }
    }
}
