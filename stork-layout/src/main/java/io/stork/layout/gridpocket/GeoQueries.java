package io.stork.layout.gridpocket;

import io.stork.layout.history.QueryRecord;
import io.stork.layout.model.Range;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The paper's queries: a square box of {@code sizeKm} around a randomly drawn meter (to compare it with
 * its neighbours) over a time window. Meters are split once, by seed, into two disjoint halves: history
 * queries are centred on one, measuring queries on the other, so measuring never replays the history.
 */
public final class GeoQueries {

    /** A box query: latitude, longitude and date (epoch seconds) ranges, and the meter it is about. */
    public record GeoQuery(long vid, double minLat, double maxLat, double minLon, double maxLon, long fromSeconds,
                           long toSeconds) {

        /** The history entry of this query, as run at {@code timeMillis}. */
        public QueryRecord toRecord(long timeMillis) {
            return QueryRecord.of(timeMillis, Map.of("lat", Range.of(minLat, maxLat), "lon", Range.of(minLon, maxLon),
                    "date", Range.of(fromSeconds, toSeconds)));
        }
    }

    private final GridPocketGenerator data;
    private final List<Meter> historyMeters;
    private final List<Meter> measureMeters;
    private final long seed;

    public GeoQueries(GridPocketGenerator data, long seed) {
        this.data = data;
        this.seed = seed;
        List<Meter> shuffled = new ArrayList<>(data.meters());
        Collections.shuffle(shuffled, new Random(seed));
        int half = shuffled.size() / 2;
        this.historyMeters = List.copyOf(shuffled.subList(0, half));
        this.measureMeters = List.copyOf(shuffled.subList(half, shuffled.size()));
    }

    public List<GeoQuery> historySet(int n, double sizeKm, int windowSteps) {
        return draw(historyMeters, new Random(seed * 13 + 1), n, sizeKm, windowSteps);
    }

    public List<GeoQuery> measureSet(int n, double sizeKm, int windowSteps) {
        return draw(measureMeters, new Random(seed * 13 + 2), n, sizeKm, windowSteps);
    }

    private List<GeoQuery> draw(List<Meter> pool, Random r, int n, double sizeKm, int windowSteps) {
        if (pool.isEmpty()) {
            throw new IllegalArgumentException("too few meters to draw queries from");
        }
        long span = data.endSeconds() - data.startSeconds();
        long window = Math.min(span, windowSteps * GridPocketGenerator.STEP_SECONDS);
        List<GeoQuery> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Meter m = pool.get(r.nextInt(pool.size()));
            double dLat = sizeKm / 2 / 111.32;
            double dLon = sizeKm / 2 / (111.32 * Math.cos(Math.toRadians(m.lat())));
            long steps = (span - window) / GridPocketGenerator.STEP_SECONDS;
            long from = data.startSeconds() + (steps == 0 ? 0 : r.nextLong(steps + 1)) * GridPocketGenerator.STEP_SECONDS;
            out.add(new GeoQuery(m.vid(), m.lat() - dLat, m.lat() + dLat, m.lon() - dLon, m.lon() + dLon, from,
                    from + window));
        }
        return out;
    }
}
