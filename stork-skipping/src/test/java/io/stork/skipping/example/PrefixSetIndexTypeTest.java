package io.stork.skipping.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.skipping.ColumnType;
import io.stork.skipping.Evaluator;
import io.stork.skipping.PartStatistics;
import io.stork.skipping.StatisticsCodec;
import io.stork.skipping.collect.PartStatisticsCollector;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.expr.Predicate.StartsWith;
import io.stork.skipping.spi.IndexTypes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plug-in API as a user meets it: an index type found by the service loader, written and read back. */
class PrefixSetIndexTypeTest {

    private static String write(IndexTypes types, String... cities) {
        SkippingSpec spec = SkippingSpec.of(List.of(Map.entry("city", ColumnType.STRING)),
                Map.of(SkippingSpec.INDEXES, "city:prefixes"), types);
        PartStatisticsCollector collector = spec.newCollector(types);
        for (String city : cities) {
            collector.column(0).add(city);
            collector.rowDone();
        }
        return StatisticsCodec.write(collector.finish());
    }

    @Test
    void thePluginIsFoundWrittenReadAndSkipsWhatMinMaxCannot() throws Exception {
        IndexTypes types = IndexTypes.load(getClass().getClassLoader());
        assertThat(types.names()).contains("values", "bloom", PrefixSetIndexType.NAME);
        String json = write(types, "apple", "zebra", "banana", "kiwi", "a");
        assertThat(json).contains("\"prefixes\":{");
        PartStatistics part = StatisticsCodec.read(json, types).orElseThrow();

        assertThat(Evaluator.mayMatch(new Comparison("city", Op.EQ, "mango"), part)).as("between min and max").isFalse();
        assertThat(Evaluator.mayMatch(new StartsWith("city", "mang"), part)).isFalse();
        assertThat(Evaluator.mayMatch(new StartsWith("city", "m"), part)).isFalse();
        assertThat(Evaluator.mayMatch(new Comparison("city", Op.EQ, "kiwi"), part)).isTrue();
        assertThat(Evaluator.mayMatch(new StartsWith("city", "ba"), part)).isTrue();
        assertThat(Evaluator.mayMatch(new StartsWith("city", "b"), part)).isTrue();
        assertThat(Evaluator.mayMatch(new Comparison("city", Op.EQ, "a"), part)).isTrue();

        // A reader without the plug-in reads the statistics without it: min/max only, nothing wrongly skipped.
        IndexTypes builtIns = IndexTypes.of();
        PartStatistics without = StatisticsCodec.read(json, builtIns).orElseThrow();
        assertThat(Evaluator.mayMatch(new Comparison("city", Op.EQ, "mango"), without)).isTrue();
    }
}
