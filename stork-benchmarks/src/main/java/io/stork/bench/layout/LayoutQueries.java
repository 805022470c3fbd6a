package io.stork.bench.layout;

import io.stork.layout.gridpocket.GeoQueries;
import io.stork.layout.gridpocket.GeoQueries.GeoQuery;
import io.stork.layout.gridpocket.GridPocketGenerator;
import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The benchmark's queries, after the paper's notebook: a meter's consumption against its neighbours'
 * average, over a time window, for the meters in a square box around it. Measuring boxes of 5, 10 and
 * 20 km are centred on one half of the meters; the history the k-d tree with history is built from (the
 * same sizes) on the other half (GeoQueries), so measuring never replays the history. Then queries the
 * history did not foresee: a 50 km box, and the meters in a temperature band or of one floor size (no box)
 * over the same kind of window.
 */
final class LayoutQueries {

    /** A query class: id, label, and whether the history foresaw it. */
    record QueryClass(String id, String label, boolean foreseen) {
    }

    /** One query: its class, its number within it, its predicates, and the meter it compares. */
    record Query(String cls, int number, String where, long vid) {

        String key() {
            return cls + "#" + number;
        }

        /**
         * Per meter in the selection, its rows and their order-independent hash and its mean running total
         * of the day; then the drawn meter's against the others' mean. The row count and the XOR of the row
         * hashes are what every layout must agree on.
         */
        String sql(String table) {
            return "SELECT sum(n) AS n, bit_xor(h) AS h, max(IF(vid = " + vid + ", used, NULL)) AS meter, "
                    + "avg(IF(vid <> " + vid + ", used, NULL)) AS neighbours FROM (SELECT vid, count(*) AS n, "
                    + "bit_xor(xxhash64(vid, date, sumHC, sumHP)) AS h, avg(sumHC + sumHP) AS used FROM " + table
                    + " WHERE " + where + " GROUP BY vid)";
        }
    }

    static final List<QueryClass> CLASSES = List.of(
            new QueryClass("box5", "5×5 km box", true),
            new QueryClass("box10", "10×10 km box", true),
            new QueryClass("box20", "20×20 km box", true),
            new QueryClass("box50", "50×50 km box (unforeseen size)", false),
            new QueryClass("temp", "temperature band of 1 °C, no box (unforeseen column)", false),
            new QueryClass("size", "one floor size, no box (unforeseen column)", false));

    private static final double[] SIZES_KM = {5, 10, 20, 50};

    private LayoutQueries() {
    }

    /** {@code perClass} queries of every class; temperature bands from the rows at the drawn meter's time. */
    static List<Query> measuring(GridPocketGenerator data, LayoutOptions o, Dataset<Row> rows) {
        GeoQueries geo = new GeoQueries(data, o.seed() + 1);
        int n = o.queries();
        List<Query> out = new ArrayList<>();
        for (int c = 0; c < SIZES_KM.length; c++) {
            // One draw per size, each class its own slice: different meters and windows per class.
            List<GeoQuery> drawn = geo.measureSet(n * 6, SIZES_KM[c], o.windowSteps()).subList(c * n, (c + 1) * n);
            for (int i = 0; i < n; i++) {
                out.add(new Query(CLASSES.get(c).id(), i, box(drawn.get(i)), drawn.get(i).vid()));
            }
        }
        List<GeoQuery> drawn = geo.measureSet(n * 6, 5, o.windowSteps());
        for (int i = 0; i < n; i++) {
            GeoQuery q = drawn.get(4 * n + i);
            Row at = rows.where("vid = " + q.vid() + " AND date = " + q.fromSeconds()).select("temp", "size").first();
            out.add(new Query("temp", i, String.format(Locale.ROOT, "temp BETWEEN %.2f AND %.2f AND %s",
                    at.getDouble(0) - 0.5, at.getDouble(0) + 0.5, window(q)), q.vid()));
            GeoQuery s = drawn.get(5 * n + i);
            Row sized = rows.where("vid = " + s.vid() + " AND date = " + s.fromSeconds()).select("size").first();
            out.add(new Query("size", i, "size = " + sized.getLong(0) + " AND " + window(s), s.vid()));
        }
        return out;
    }

    /** The history: {@code perSize} past box queries of each measuring size, a minute apart, newest now. */
    static QueryHistory history(GridPocketGenerator data, LayoutOptions o, long nowMillis) {
        GeoQueries geo = new GeoQueries(data, o.seed() + 1);
        List<QueryRecord> records = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            List<GeoQuery> drawn = geo.historySet(o.historyQueries() * 3, SIZES_KM[c], o.windowSteps())
                    .subList(c * o.historyQueries(), (c + 1) * o.historyQueries());
            for (GeoQuery q : drawn) {
                records.add(q.toRecord(nowMillis - records.size() * 60_000L));
            }
        }
        return QueryHistory.of(Math.max(QueryHistory.DEFAULT_CAPACITY, records.size()), records);
    }

    private static String box(GeoQuery q) {
        return String.format(Locale.ROOT, "lat BETWEEN %.6f AND %.6f AND lon BETWEEN %.6f AND %.6f AND %s", q.minLat(),
                q.maxLat(), q.minLon(), q.maxLon(), window(q));
    }

    private static String window(GeoQuery q) {
        return "date BETWEEN " + q.fromSeconds() + " AND " + q.toSeconds();
    }
}
