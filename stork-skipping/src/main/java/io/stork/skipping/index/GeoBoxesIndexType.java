package io.stork.skipping.index;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.ColumnType;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.GeoBox;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexCollector;
import io.stork.skipping.spi.IndexType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code geo}: up to a few boxes that together hold every point (latitude, longitude) of a part, kept on
 * the latitude column and naming the longitude column. A part whose points lie around two cities gets a
 * box around each instead of one box spanning both, so a query box between them rules it out. Set with
 * {@code stork.skipping.geo=lat:lon} (gathered by {@link io.stork.skipping.collect.GeoCollector}, which
 * sees both columns of a row); it cannot be named in {@code stork.skipping.indexes}, which is per column.
 */
public final class GeoBoxesIndexType implements IndexType {

    public static final String NAME = "geo";

    @Override
    public String name() {
        return NAME;
    }

    /** Never through {@code stork.skipping.indexes}: the index spans two columns. */
    @Override
    public boolean supports(ColumnType type) {
        return false;
    }

    @Override
    public IndexCollector newCollector(ColumnType type, Map<String, String> options) {
        throw new UnsupportedOperationException("geo boxes are gathered from two columns: stork.skipping.geo=lat:lon");
    }

    @Override
    public ColumnIndex fromJson(Object json, ColumnType type) {
        if (!(json instanceof Map<?, ?> map) || !(map.get("lon") instanceof String lon)
                || !(map.get("boxes") instanceof List<?> items)) {
            throw new IllegalArgumentException("geo boxes are {\"lon\": name, \"boxes\": [[minLat, maxLat, minLon, maxLon], ...]}");
        }
        List<double[]> boxes = new ArrayList<>();
        for (Object item : items) {
            if (!(item instanceof List<?> b) || b.size() != 4) {
                throw new IllegalArgumentException("a geo box is [minLat, maxLat, minLon, maxLon]");
            }
            double[] box = new double[4];
            for (int i = 0; i < 4; i++) {
                Object v = b.get(i);
                if (v instanceof Number n) {
                    box[i] = n.doubleValue();
                } else if ("inf".equals(v) || "-inf".equals(v)) {
                    box[i] = "inf".equals(v) ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                } else {
                    throw new IllegalArgumentException("a geo box holds numbers, \"inf\" or \"-inf\"");
                }
            }
            boxes.add(box);
        }
        return new GeoBoxes(lon, boxes);
    }

    /**
     * The boxes of one part; each {minLat, maxLat, minLon, maxLon}, bounds inclusive, NaN coordinates
     * counted as +∞. Immutable.
     */
    public static final class GeoBoxes implements ColumnIndex {

        private final String longitude;
        private final List<double[]> boxes;

        public GeoBoxes(String longitude, List<double[]> boxes) {
            this.longitude = longitude;
            List<double[]> copy = new ArrayList<>();
            for (double[] b : boxes) {
                copy.add(b.clone());
            }
            this.boxes = List.copyOf(copy);
        }

        public String longitude() {
            return longitude;
        }

        public int size() {
            return boxes.size();
        }

        @Override
        public String type() {
            return NAME;
        }

        @Override
        public boolean mayMatch(Predicate leaf, ColumnStatistics column) {
            if (leaf instanceof GeoBox box && box.longitude().equalsIgnoreCase(longitude)) {
                return mayHold(box.minLatitude(), box.maxLatitude(), box.minLongitude(), box.maxLongitude());
            }
            return true;
        }

        /** Whether some point of the part may lie in the box (bounds inclusive); true for a NaN bound. */
        public boolean mayHold(double minLat, double maxLat, double minLon, double maxLon) {
            if (Double.isNaN(minLat) || Double.isNaN(maxLat) || Double.isNaN(minLon) || Double.isNaN(maxLon)) {
                return true;
            }
            for (double[] b : boxes) {
                if (b[0] <= maxLat && b[1] >= minLat && b[2] <= maxLon && b[3] >= minLon) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("lon", longitude);
            List<Object> list = new ArrayList<>();
            for (double[] b : boxes) {
                list.add(List.of(bound(b[0]), bound(b[1]), bound(b[2]), bound(b[3])));
            }
            json.put("boxes", list);
            return json;
        }

        /** JSON has no infinity: ±∞ (infinite coordinates, and NaN, which counts as +∞) as strings. */
        private static Object bound(double v) {
            return Double.isFinite(v) ? (Object) v : v > 0 ? "inf" : "-inf";
        }
    }
}
