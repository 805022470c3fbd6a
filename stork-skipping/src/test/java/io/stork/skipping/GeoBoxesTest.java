package io.stork.skipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.skipping.collect.GeoCollector;
import io.stork.skipping.collect.PartStatisticsCollector;
import io.stork.skipping.collect.SkippingSpec;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.And;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.index.GeoBoxesIndexType.GeoBoxes;
import io.stork.skipping.spi.IndexTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GeoBoxesTest {

    private static final IndexTypes TYPES = IndexTypes.load(GeoBoxesTest.class.getClassLoader());

    private static Predicate box(double minLat, double maxLat, double minLon, double maxLon) {
        return new And(new And(new Comparison("lat", Op.GT_EQ, minLat), new Comparison("lat", Op.LT_EQ, maxLat)),
                new And(new Comparison("lon", Op.GT_EQ, minLon), new Comparison("lon", Op.LT_EQ, maxLon)));
    }

    private static PartStatistics part(List<double[]> points, String geo) throws Exception {
        SkippingSpec spec = SkippingSpec.of(List.of(Map.entry("lat", ColumnType.DOUBLE), Map.entry("lon", ColumnType.DOUBLE)),
                geo == null ? Map.of() : Map.of(SkippingSpec.GEO, geo), TYPES);
        PartStatisticsCollector c = spec.newCollector(TYPES);
        for (double[] p : points) {
            c.column(0).add(p[0]);
            c.column(1).add(p[1]);
            c.rowDone();
        }
        return StatisticsCodec.read(StatisticsCodec.write(c.finish()), TYPES).orElseThrow();
    }

    @Test
    void aPartAroundTwoCitiesIsRuledOutForABoxBetweenThem() throws Exception {
        List<double[]> points = new ArrayList<>();
        Random r = new Random(7);
        for (int i = 0; i < 500; i++) {
            points.add(new double[] {48.85 + r.nextGaussian() * 0.05, 2.35 + r.nextGaussian() * 0.05}); // Paris
            points.add(new double[] {40.71 + r.nextGaussian() * 0.05, -74.0 + r.nextGaussian() * 0.05}); // New York
        }
        Predicate atlantic = box(44, 46, -40, -20);
        Predicate paris = box(48.8, 48.9, 2.3, 2.4);
        PartStatistics bounds = part(points, null);
        PartStatistics boxes = part(points, "lat:lon");
        assertThat(Evaluator.mayMatch(atlantic, bounds)).as("one box, from the bounds, spans the ocean").isTrue();
        assertThat(Evaluator.mayMatch(atlantic, boxes)).as("boxes around each city").isFalse();
        assertThat(Evaluator.mayMatch(paris, boxes)).isTrue();
        GeoBoxes index = (GeoBoxes) boxes.column("lat").orElseThrow().indexes().get("geo");
        assertThat(index.size()).isBetween(2, 8);
        assertThat(index.longitude()).isEqualTo("lon");
        // A range on one coordinate alone does not use the boxes (a row may lack the other coordinate).
        assertThat(Evaluator.mayMatch(new Comparison("lat", Op.EQ, 45.0), boxes)).isTrue();
    }

    @Test
    void boxesHoldEveryPointWhateverTheirNumber() {
        Random r = new Random(11);
        for (int round = 0; round < 200; round++) {
            int maxBoxes = 1 + r.nextInt(8);
            GeoCollector collector = new GeoCollector("lon", maxBoxes);
            List<double[]> points = new ArrayList<>();
            int clusters = 1 + r.nextInt(6);
            for (int i = 0; i < 1 + r.nextInt(300); i++) {
                int k = r.nextInt(clusters);
                double lat = r.nextInt(20) == 0 ? Double.NaN : -80 + 30 * k + r.nextGaussian() * Math.pow(10, -r.nextInt(4));
                double lon = r.nextInt(50) == 0 ? Double.NEGATIVE_INFINITY : -170 + 60 * k + r.nextGaussian();
                points.add(new double[] {lat, lon});
                collector.add(lat, lon);
            }
            GeoBoxes boxes = collector.finish();
            assertThat(boxes.size()).isBetween(1, maxBoxes);
            for (double[] p : points) {
                double lat = Double.isNaN(p[0]) ? Double.POSITIVE_INFINITY : p[0];
                assertThat(boxes.mayHold(lat, lat, p[1], p[1])).as("point %s,%s", p[0], p[1]).isTrue();
            }
        }
    }

    @Test
    void rowsWithoutBothCoordinatesAreLeftOutAndBadSettingsAreNamed() throws Exception {
        GeoCollector collector = new GeoCollector("lon", 4);
        collector.add(null, 1.0);
        collector.add(1.0, null);
        assertThat(collector.finish()).isNull();
        assertThatThrownBy(() -> part(List.of(), "lat")).hasMessageContaining("stork.skipping.geo: 'lat' is not latitude:longitude");
        assertThatThrownBy(() -> part(List.of(), "lat:x")).hasMessageContaining("no column 'x'");
        assertThatThrownBy(() -> SkippingSpec.of(List.of(Map.entry("lat", ColumnType.LONG), Map.entry("lon", ColumnType.DOUBLE)),
                Map.of(SkippingSpec.GEO, "lat:lon"), TYPES)).hasMessageContaining("must both be float or double columns");
    }
}
