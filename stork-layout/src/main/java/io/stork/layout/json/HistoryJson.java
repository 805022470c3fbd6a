package io.stork.layout.json;

import io.stork.layout.history.QueryHistory;
import io.stork.layout.history.QueryRecord;
import io.stork.layout.model.Range;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a {@link QueryHistory}, as kept beside a dataset:
 * <pre>{"format":"stork-query-history","version":1,"capacity":1000,
 *  "queries":[{"time":1767225600000,"constraints":{"lat":[43.1,43.2],"date":[null,1767225600]}}]}</pre>
 * A bound is a JSON number or string, null for an open end. A history does not know the columns' types:
 * integers read back as longs, decimals as doubles, and a non-finite double bound is saved as an open
 * end (a wider range only makes the history less sure that a query cut a box, never wrong).
 */
public final class HistoryJson {

    static final String FORMAT = "stork-query-history";

    private HistoryJson() {
    }

    public static String write(QueryHistory history) {
        return JsonValues.write(toJson(history));
    }

    public static QueryHistory read(String json) {
        return fromJson(JsonValues.object(JsonValues.parse(json), "query history"));
    }

    static Map<String, Object> toJson(QueryHistory history) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("version", 1L);
        m.put("capacity", (long) history.capacity());
        m.put("queries", history.queries().stream().map(HistoryJson::query).toList());
        return m;
    }

    static QueryHistory fromJson(Map<String, Object> m) {
        if (!FORMAT.equals(m.get("format")) || !Long.valueOf(1).equals(m.get("version"))) {
            throw new IllegalArgumentException("not a version 1 query history: format " + m.get("format")
                    + ", version " + m.get("version"));
        }
        List<QueryRecord> queries = JsonValues.list(m, "queries").stream().map(q -> {
            Map<String, Object> qm = JsonValues.object(q, "query");
            Map<String, Range> constraints = new LinkedHashMap<>();
            JsonValues.object(qm.get("constraints"), "constraints").forEach((column, r) -> {
                if (!(r instanceof List<?> ends) || ends.size() != 2) {
                    throw new IllegalArgumentException("constraint on '" + column + "': [lo, hi] was expected, not " + r);
                }
                constraints.put(column, new Range(ends.get(0), ends.get(1)));
            });
            return QueryRecord.of(JsonValues.number(qm, "time"), constraints);
        }).toList();
        return QueryHistory.of((int) JsonValues.number(m, "capacity"), queries);
    }

    private static Map<String, Object> query(QueryRecord q) {
        Map<String, Object> constraints = new LinkedHashMap<>();
        q.constraints().forEach((c, r) -> constraints.put(c, java.util.Arrays.asList(bound(r.lo()), bound(r.hi()))));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("time", q.timeMillis());
        m.put("constraints", constraints);
        return m;
    }

    private static Object bound(Object v) {
        if (v instanceof Double d && !Double.isFinite(d)) {
            return null;
        }
        if (v instanceof Float f) {
            return Float.isFinite(f) ? f.doubleValue() : null;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof java.time.Instant i) {
            return io.stork.layout.model.ColumnType.TIMESTAMP.canonical("history", i);
        }
        return v;
    }
}
