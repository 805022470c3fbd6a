package io.stork.spark.layout.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.layout.model.Range;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.And;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.GeoBox;
import io.stork.skipping.expr.Predicate.In;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.expr.Predicate.Or;
import io.stork.skipping.expr.Predicate.StartsWith;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class PredicateRangesTest {

    private static final StructType SCHEMA = StructType.fromDDL(
            "lat DOUBLE, lon DOUBLE, vid BIGINT, city STRING, day DATE, ts TIMESTAMP, price DECIMAL(10,2), ok BOOLEAN");

    private static Map<String, Range> of(Predicate p) {
        return PredicateRanges.of(p, SCHEMA);
    }

    @Test
    void aBoxAndATimeWindowBecomeOneRangePerColumn() {
        Predicate p = new And(new GeoBox("lat", "lon", 43.1, 43.2, 5.3, 5.4),
                new And(new Comparison("ts", Op.GT_EQ, 1_000L), new Comparison("ts", Op.LT, 2_000L)));
        assertThat(of(p)).containsExactlyInAnyOrderEntriesOf(Map.of("lat", Range.of(43.1, 43.2),
                "lon", Range.of(5.3, 5.4), "ts", Range.of(1_000L, 2_000L)));
    }

    @Test
    void conjunctionsIntersect_disjunctionsTakeTheHullOfWhatBothSidesBound() {
        Predicate and = new And(new Comparison("vid", Op.GT, 10L), new Comparison("vid", Op.GT, 20L));
        assertThat(of(and)).containsEntry("vid", Range.of(20L, null));
        Predicate or = new Or(new And(new Comparison("vid", Op.EQ, 5L), new Comparison("lat", Op.LT, 1.0)),
                new Comparison("vid", Op.EQ, 9L));
        assertThat(of(or)).containsExactlyEntriesOf(Map.of("vid", Range.of(5L, 9L)));
    }

    @Test
    void inTakesItsExtremes_prefixesBoundTheirStrings_negationsBoundNothing() {
        assertThat(of(new In("vid", List.of(7L, 3L, 11L), false))).containsEntry("vid", Range.of(3L, 11L));
        assertThat(of(new In("vid", List.of(7L), true))).isEmpty();
        assertThat(of(new Comparison("vid", Op.NOT_EQ, 7L))).isEmpty();
        Range prefix = of(new StartsWith("city", "Par")).get("city");
        assertThat(prefix.lo()).isEqualTo("Par");
        assertThat(((String) prefix.hi()).compareTo("Paris")).isPositive();
        assertThat(((String) prefix.hi()).compareTo("Pas")).isNegative();
    }

    @Test
    void datesBecomeMicrosAtMidnight_decimalsDoubles_booleansAndUnknownColumnsAreLeftOut() {
        assertThat(of(new Comparison("day", Op.EQ, 1L))).containsEntry("day", Range.of(86_400_000_000L, 86_400_000_000L));
        assertThat(of(new Comparison("price", Op.LT_EQ, new BigDecimal("9.50")))).containsEntry("price", Range.of(null, 9.5));
        assertThat(of(new Comparison("ok", Op.EQ, true))).isEmpty();
        assertThat(of(new Comparison("nowhere", Op.EQ, 1L))).isEmpty();
        assertThat(of(Predicate.Unknown.INSTANCE)).isEmpty();
    }
}
