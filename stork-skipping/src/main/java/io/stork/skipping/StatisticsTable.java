package io.stork.skipping;

import io.stork.skipping.expr.Predicate;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexTypes;
import java.io.IOException;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The statistics of every part of a dataset generation, parsed once and held by column in arrays (a
 * long or double per part for numeric bounds, counts as longs), so that a query judges a hundred thousand
 * parts without a hundred thousand maps of objects, and only the columns its filter names are looked at.
 * Parts are numbered in the order given; a part whose statistics are missing, of a newer version or
 * unreadable has none (it is read). Immutable once built; safe to share between queries.
 */
public final class StatisticsTable {

    private final long[] rows;
    private final Map<String, Column> columns = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    /** One column over all parts; a part may lack it, and parts may disagree on its type. */
    private static final class Column {
        final String name;
        final byte[] type; // ColumnType ordinal + 1; 0: the part has no statistics for this column
        final long[] nulls;
        long[] nans;
        final EnumMap<ColumnType, Bounds> bounds = new EnumMap<>(ColumnType.class);
        Map<Integer, Map<String, ColumnIndex>> indexes;

        Column(String name, int parts) {
            this.name = name;
            this.type = new byte[parts];
            this.nulls = new long[parts];
        }
    }

    private static final class Bounds {
        final BitSet present = new BitSet();
        final BitSet maxIsPrefix = new BitSet();
        long[] longs; // min at 2i, max at 2i+1
        double[] doubles;
        Object[] objects;
    }

    private StatisticsTable(int parts) {
        this.rows = new long[parts];
    }

    /** Parts parsed at once: parsing runs on all cores, and what is held between parse and table stays small. */
    private static final int CHUNK = 8192;

    /** Parses each part's statistics JSON (null: none). */
    public static StatisticsTable of(List<String> statsJson, IndexTypes types) {
        int n = statsJson.size();
        StatisticsTable table = new StatisticsTable(n);
        java.util.Arrays.fill(table.rows, -1);
        PartStatistics[] parsed = new PartStatistics[Math.min(n, CHUNK)];
        for (int from = 0; from < n; from += CHUNK) {
            int start = from;
            int count = Math.min(CHUNK, n - from);
            // Parsing is most of building a table of a million parts; the columns are filled in order after.
            java.util.stream.IntStream.range(0, count).parallel().forEach(i -> parsed[i] = parse(statsJson.get(start + i), types));
            for (int i = 0; i < count; i++) {
                if (parsed[i] != null) {
                    table.add(start + i, parsed[i]);
                    parsed[i] = null;
                }
            }
        }
        return table;
    }

    /** A part's statistics, or null: none, of a newer version, or unreadable (the part is then read). */
    private static PartStatistics parse(String json, IndexTypes types) {
        if (json == null) {
            return null;
        }
        try {
            return StatisticsCodec.read(json, types).orElse(null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void add(int part, PartStatistics stats) {
        rows[part] = stats.rows();
        for (Map.Entry<String, ColumnStatistics> e : stats.columns().entrySet()) {
            Column column = columns.computeIfAbsent(e.getKey(), name -> new Column(name, rows.length));
            ColumnStatistics c = e.getValue();
            column.type[part] = (byte) (c.type().ordinal() + 1);
            column.nulls[part] = c.nullCount();
            if (c.nanCount() > 0) {
                if (column.nans == null) {
                    column.nans = new long[rows.length];
                }
                column.nans[part] = c.nanCount();
            }
            if (c.hasBounds()) {
                Bounds b = column.bounds.computeIfAbsent(c.type(), t -> new Bounds());
                b.present.set(part);
                if (c.maxIsPrefix()) {
                    b.maxIsPrefix.set(part);
                }
                switch (c.type()) {
                    case LONG -> {
                        if (b.longs == null) {
                            b.longs = new long[2 * rows.length];
                        }
                        b.longs[2 * part] = (Long) c.min();
                        b.longs[2 * part + 1] = (Long) c.max();
                    }
                    case DOUBLE -> {
                        if (b.doubles == null) {
                            b.doubles = new double[2 * rows.length];
                        }
                        b.doubles[2 * part] = (Double) c.min();
                        b.doubles[2 * part + 1] = (Double) c.max();
                    }
                    default -> {
                        if (b.objects == null) {
                            b.objects = new Object[2 * rows.length];
                        }
                        b.objects[2 * part] = c.min();
                        b.objects[2 * part + 1] = c.max();
                    }
                }
            }
            if (!c.indexes().isEmpty()) {
                if (column.indexes == null) {
                    column.indexes = new HashMap<>();
                }
                column.indexes.put(part, c.indexes());
            }
        }
    }

    public int size() {
        return rows.length;
    }

    public boolean hasStatistics(int part) {
        return rows[part] >= 0;
    }

    /**
     * Whether part {@code part} may hold a row making {@code normalized} TRUE ({@link Evaluator#normalize});
     * {@code columns}: the columns it names ({@link Evaluator#columns}). True for a part without statistics.
     */
    public boolean mayMatch(int part, Predicate normalized, Set<String> columns) {
        if (rows[part] < 0) {
            return true;
        }
        Boolean fast = fromArrays(part, normalized);
        if (fast != null) {
            return fast;
        }
        Map<String, ColumnStatistics> view = new LinkedHashMap<>();
        for (String name : columns) {
            ColumnStatistics c = column(part, name);
            if (c != null) {
                view.put(name, c);
            }
        }
        return Evaluator.mayMatchNormalized(normalized, new PartStatistics(rows[part], view));
    }

    /**
     * The common filters (comparisons of integer-like columns with a literal, null checks, AND/OR of them)
     * answered from the arrays as {@link Evaluator} would, without making objects per part: a query over a
     * million parts otherwise spends its time allocating. Null: not one of them (or the part has further
     * indexes on a column it names), so the general path answers.
     */
    private Boolean fromArrays(int part, Predicate p) {
        if (rows[part] == 0) {
            return false;
        }
        if (p instanceof Predicate.And a) {
            Boolean left = fromArrays(part, a.left());
            if (left == null) {
                return null;
            }
            Boolean right = fromArrays(part, a.right());
            return right == null ? null : left && right;
        }
        if (p instanceof Predicate.Or o) {
            Boolean left = fromArrays(part, o.left());
            if (left == null) {
                return null;
            }
            Boolean right = fromArrays(part, o.right());
            return right == null ? null : left || right;
        }
        if (p instanceof Predicate.Unknown) {
            return true;
        }
        String name = p instanceof Predicate.Comparison c ? c.column() : p instanceof Predicate.IsNull n ? n.column()
                : p instanceof Predicate.IsNotNull n ? n.column() : null;
        if (name == null) {
            return null;
        }
        Column column = columns.get(name);
        if (column == null || column.type[part] == 0) {
            return true; // no statistics for the column: nothing ruled out
        }
        if (column.indexes != null && column.indexes.containsKey(part)) {
            return null;
        }
        long nulls = column.nulls[part];
        if (p instanceof Predicate.IsNull) {
            return nulls > 0;
        }
        if (p instanceof Predicate.IsNotNull) {
            return nulls < rows[part];
        }
        Predicate.Comparison cmp = (Predicate.Comparison) p;
        if (column.type[part] != ColumnType.LONG.ordinal() + 1 || !(cmp.literal() instanceof Long v)) {
            return null;
        }
        if (nulls >= rows[part]) {
            return false;
        }
        Bounds b = column.bounds.get(ColumnType.LONG);
        if (b == null || !b.present.get(part)) {
            return true;
        }
        long min = b.longs[2 * part];
        long max = b.longs[2 * part + 1];
        return switch (cmp.op()) {
            case EQ -> v >= min && v <= max;
            case LT -> min < v;
            case LT_EQ -> min <= v;
            case GT -> max > v;
            case GT_EQ -> max >= v;
            case NOT_EQ -> !(min == max && min == v);
        };
    }

    private ColumnStatistics column(int part, String name) {
        Column column = columns.get(name);
        if (column == null || column.type[part] == 0) {
            return null;
        }
        ColumnType type = ColumnType.values()[column.type[part] - 1];
        Object min = null;
        Object max = null;
        boolean prefix = false;
        Bounds b = column.bounds.get(type);
        if (b != null && b.present.get(part)) {
            prefix = b.maxIsPrefix.get(part);
            switch (type) {
                case LONG -> {
                    min = b.longs[2 * part];
                    max = b.longs[2 * part + 1];
                }
                case DOUBLE -> {
                    min = b.doubles[2 * part];
                    max = b.doubles[2 * part + 1];
                }
                default -> {
                    min = b.objects[2 * part];
                    max = b.objects[2 * part + 1];
                }
            }
        }
        Map<String, ColumnIndex> indexes = column.indexes == null ? Map.of()
                : column.indexes.getOrDefault(part, Map.of());
        return new ColumnStatistics(type, column.nulls[part], column.nans == null ? 0 : column.nans[part], min, max,
                prefix, indexes);
    }
}
