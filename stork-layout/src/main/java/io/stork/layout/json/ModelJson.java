package io.stork.layout.json;

import io.stork.layout.grid.GridModel;
import io.stork.layout.kdtree.KdNode;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.layout.model.Box;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import io.stork.layout.model.HistorySummary;
import io.stork.layout.model.PartitionerModel;
import io.stork.layout.model.Range;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The saved form of a layout model, to keep beside a dataset and reuse across writes (docs/layouts.md):
 * <pre>{"format":"stork-layout","version":1,"kind":"kdtree"|"grid",
 *  "columns":[{"name":"lat","type":"double"}, ...],
 *  "history":{"queries":..,"oldest":..,"newest":..,"halfLifeMillis":..,"builtAt":..,"columnWeights":{..}},
 *  ...the kind's own fields}</pre>
 * A k-d tree adds {@code "buckets"}, {@code "tree"} and, when it is not the key's order, {@code "sortBy"}
 * (the key column names in the order a bucket's rows are sorted by): a split is {@code {"dim":i,"value":v,"left":..,
 * "right":..}}, a leaf {@code {"bucket":b,"rows":n,"box":[[lo,hi],..] or null}}. A grid adds
 * {@code precision, minRow, minCol, rows, cols, cuts}. Values are typed by their column: longs and
 * timestamps (microseconds) as integers, doubles as numbers ("NaN", "Infinity", "-Infinity" as strings),
 * strings as strings.
 */
public final class ModelJson {

    static final String FORMAT = "stork-layout";

    private ModelJson() {
    }

    public static String write(PartitionerModel model) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("version", 1L);
        m.put("kind", model.kind());
        m.put("columns", model.columns().stream().map(c -> Map.of("name", c.name(), "type", c.type().jsonName()))
                .map(LinkedHashMap::new).toList());
        m.put("history", history(model.history()));
        if (model instanceof KdTreeModel kd) {
            m.put("buckets", (long) kd.buckets());
            m.put("tree", node(kd.columns(), kd.root()));
            if (!kd.sortColumns().equals(kd.columns())) {
                m.put("sortBy", kd.sortColumns().stream().map(Column::name).toList());
            }
        } else if (model instanceof GridModel g) {
            m.put("precision", (long) g.precision());
            m.put("minRow", (long) g.minRow());
            m.put("minCol", (long) g.minCol());
            m.put("rows", (long) g.rows());
            m.put("cols", (long) g.cols());
            m.put("cuts", g.cuts());
        } else {
            throw new IllegalArgumentException("no JSON form for layout kind '" + model.kind() + "'");
        }
        return JsonValues.write(m);
    }

    public static PartitionerModel read(String json) {
        Map<String, Object> m = JsonValues.object(JsonValues.parse(json), "layout model");
        if (!FORMAT.equals(m.get("format")) || !Long.valueOf(1).equals(m.get("version"))) {
            throw new IllegalArgumentException("not a version 1 layout model: format " + m.get("format") + ", version "
                    + m.get("version"));
        }
        List<Column> columns = JsonValues.list(m, "columns").stream().map(c -> {
            Map<String, Object> cm = JsonValues.object(c, "column");
            return Column.of(JsonValues.string(cm, "name"), ColumnType.fromJsonName(JsonValues.string(cm, "type")));
        }).toList();
        HistorySummary history = history(JsonValues.object(m.get("history"), "history"));
        String kind = JsonValues.string(m, "kind");
        return switch (kind) {
            case KdTreeModel.KIND -> new KdTreeModel(columns, (int) JsonValues.number(m, "buckets"),
                    node(columns, JsonValues.object(m.get("tree"), "tree")), history, sortColumns(columns, m));
            case GridModel.KIND -> {
                if (columns.size() != 2) {
                    throw new IllegalArgumentException("a grid has two columns (lat, lon), not " + columns.size());
                }
                List<Long> cuts = JsonValues.list(m, "cuts").stream().map(c -> (Long) c).toList();
                yield new GridModel(columns.get(0), columns.get(1), (int) JsonValues.number(m, "precision"),
                        (int) JsonValues.number(m, "minRow"), (int) JsonValues.number(m, "minCol"),
                        (int) JsonValues.number(m, "rows"), (int) JsonValues.number(m, "cols"), cuts, history);
            }
            default -> throw new IllegalArgumentException("unknown layout kind '" + kind + "' (kdtree, grid)");
        };
    }

    /** The optional "sortBy" names (absent: the key's order), each a key column. */
    private static List<Column> sortColumns(List<Column> columns, Map<String, Object> m) {
        if (!m.containsKey("sortBy")) {
            return columns;
        }
        List<Column> out = new ArrayList<>();
        for (Object name : JsonValues.list(m, "sortBy")) {
            out.add(columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("sortBy names " + name + ", not a key column of "
                            + columns.stream().map(Column::name).toList())));
        }
        return out;
    }

    private static Map<String, Object> history(HistorySummary h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("queries", (long) h.queries());
        m.put("oldest", h.oldestMillis());
        m.put("newest", h.newestMillis());
        m.put("halfLifeMillis", h.halfLifeMillis());
        m.put("builtAt", h.builtAtMillis());
        m.put("columnWeights", new LinkedHashMap<>(new java.util.TreeMap<>(h.columnWeights())));
        return m;
    }

    private static HistorySummary history(Map<String, Object> m) {
        Map<String, Double> weights = new LinkedHashMap<>();
        JsonValues.object(m.get("columnWeights"), "columnWeights")
                .forEach((c, w) -> weights.put(c, ((Number) w).doubleValue()));
        return new HistorySummary((int) JsonValues.number(m, "queries"), JsonValues.number(m, "oldest"),
                JsonValues.number(m, "newest"), JsonValues.number(m, "halfLifeMillis"), JsonValues.number(m, "builtAt"),
                weights);
    }

    private static Map<String, Object> node(List<Column> columns, KdNode n) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (n instanceof KdNode.Split s) {
            m.put("dim", (long) s.dim());
            m.put("value", value(columns.get(s.dim()).type(), s.value()));
            m.put("left", node(columns, s.left()));
            m.put("right", node(columns, s.right()));
        } else {
            KdNode.Leaf l = (KdNode.Leaf) n;
            m.put("bucket", (long) l.bucket());
            m.put("rows", l.sampleRows());
            List<Object> box = null;
            if (l.box() != null) {
                box = new ArrayList<>();
                for (int d = 0; d < columns.size(); d++) {
                    ColumnType t = columns.get(d).type();
                    box.add(Arrays.asList(value(t, l.box().range(d).lo()), value(t, l.box().range(d).hi())));
                }
            }
            m.put("box", box);
        }
        return m;
    }

    private static KdNode node(List<Column> columns, Map<String, Object> m) {
        if (m.containsKey("dim")) {
            int dim = (int) JsonValues.number(m, "dim");
            if (dim < 0 || dim >= columns.size()) {
                throw new IllegalArgumentException("split on column " + dim + " of " + columns.size());
            }
            return new KdNode.Split(dim, value(columns.get(dim), m.get("value")),
                    node(columns, JsonValues.object(m.get("left"), "left")),
                    node(columns, JsonValues.object(m.get("right"), "right")));
        }
        Box box = null;
        if (m.get("box") != null) {
            List<Object> sides = JsonValues.list(m, "box");
            if (sides.size() != columns.size()) {
                throw new IllegalArgumentException("a leaf box has " + sides.size() + " sides for " + columns.size()
                        + " columns");
            }
            Range[] r = new Range[sides.size()];
            for (int d = 0; d < r.length; d++) {
                List<?> ends = (List<?>) sides.get(d);
                r[d] = new Range(value(columns.get(d), ends.get(0)), value(columns.get(d), ends.get(1)));
            }
            box = Box.of(r);
        }
        return new KdNode.Leaf((int) JsonValues.number(m, "bucket"), JsonValues.number(m, "rows"), box);
    }

    private static Object value(ColumnType t, Object v) {
        return t == ColumnType.DOUBLE && v instanceof Double d && !Double.isFinite(d) ? d.toString() : v;
    }

    private static Object value(Column c, Object json) {
        if (json == null) {
            return null;
        }
        if (c.type() == ColumnType.DOUBLE && json instanceof String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("column '" + c.name() + "': not a double: " + s);
            }
        }
        if (c.type() == ColumnType.DOUBLE && json instanceof Long l) {
            return l.doubleValue();
        }
        return c.type().canonical(c.name(), json);
    }
}
