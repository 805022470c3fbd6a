package io.stork.skipping;

import io.stork.skipping.expr.Predicate;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexTypes;
import java.io.IOException;
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

    /**
     * One column over all parts; a part may lack it, and parts may disagree on its type. Parts are filled
     * from several threads, each its own parts: the arrays are written at disjoint positions, and what is
     * made lazily (a type's bounds, NaN counts, index maps) is made under the column's lock.
     */
    private static final class Column {
        final byte[] type; // ColumnType ordinal + 1; 0: the part has no statistics for this column
        final long[] nulls;
        volatile long[] nans;
        final Bounds[] bounds = new Bounds[ColumnType.values().length];
        volatile Map<Integer, Map<String, ColumnIndex>> indexes;

        Column(int parts) {
            this.type = new byte[parts];
            this.nulls = new long[parts];
        }

        Bounds bounds(ColumnType t) {
            Bounds b = bounds[t.ordinal()];
            return b != null ? b : makeBounds(t);
        }

        private synchronized Bounds makeBounds(ColumnType t) {
            if (bounds[t.ordinal()] == null) {
                bounds[t.ordinal()] = new Bounds(t, type.length);
            }
            return bounds[t.ordinal()];
        }

        synchronized long[] nans() {
            if (nans == null) {
                nans = new long[type.length];
            }
            return nans;
        }

        synchronized Map<Integer, Map<String, ColumnIndex>> indexes() {
            if (indexes == null) {
                indexes = new java.util.concurrent.ConcurrentHashMap<>();
            }
            return indexes;
        }

        /** Part {@code part}'s values, as a statistics block holds them. */
        void set(int part, ColumnType t, long nullCount, long nanCount, boolean hasBounds, Object min, Object max,
                 boolean prefix, String indexJson, long longMin, long longMax, IndexTypes types) {
            type[part] = (byte) (t.ordinal() + 1);
            nulls[part] = nullCount;
            if (nanCount > 0) {
                nans()[part] = nanCount;
            }
            if (hasBounds) {
                Bounds b = bounds(t);
                b.present[part] = true;
                b.maxIsPrefix[part] = prefix;
                if (b.longs != null) {
                    b.longs[2 * part] = longMin;
                    b.longs[2 * part + 1] = longMax;
                } else if (b.doubles != null) {
                    b.doubles[2 * part] = (Double) min;
                    b.doubles[2 * part + 1] = (Double) max;
                } else {
                    b.objects[2 * part] = min;
                    b.objects[2 * part + 1] = max;
                }
            }
            if (indexJson != null) {
                try {
                    Map<String, ColumnIndex> parsed = StatisticsCodec.readIndexes(indexJson, t, types);
                    if (!parsed.isEmpty()) {
                        indexes().put(part, parsed);
                    }
                } catch (IOException | RuntimeException e) {
                    // an index this reader cannot read rules nothing out
                }
            }
        }
    }

    private static final class Bounds {
        final boolean[] present;
        final boolean[] maxIsPrefix;
        final long[] longs; // min at 2i, max at 2i+1
        final double[] doubles;
        final Object[] objects;

        Bounds(ColumnType type, int parts) {
            present = new boolean[parts];
            maxIsPrefix = new boolean[parts];
            longs = type == ColumnType.LONG ? new long[2 * parts] : null;
            doubles = type == ColumnType.DOUBLE ? new double[2 * parts] : null;
            objects = type != ColumnType.LONG && type != ColumnType.DOUBLE ? new Object[2 * parts] : null;
        }
    }

    private StatisticsTable(int parts) {
        this.rows = new long[parts];
    }

    /** Parts parsed by one task: parsing and filling run on all cores, a block of parts per task. */
    private static final int BLOCK = 4096;

    /** Parses each part's statistics JSON (null: none). */
    public static StatisticsTable of(List<String> statsJson, IndexTypes types) {
        int n = statsJson.size();
        StatisticsTable table = new StatisticsTable(n);
        java.util.Arrays.fill(table.rows, -1);
        java.util.stream.IntStream.range(0, (n + BLOCK - 1) / BLOCK).parallel().forEach(block -> {
            Map<String, Column> seen = new HashMap<>(); // this task's column lookups, without the shared lock
            for (int part = block * BLOCK, end = Math.min(n, part + BLOCK); part < end; part++) {
                PartStatistics stats = parse(statsJson.get(part), types);
                if (stats != null) {
                    table.add(part, stats, seen);
                }
            }
        });
        return table;
    }

    /**
     * The table of a segment's statistics block ({@link StatisticsBlock}): filled straight from its binary
     * columns, with no JSON parsed but index objects.
     */
    public static StatisticsTable of(byte[] block, IndexTypes types) throws IOException {
        StatisticsTable table = new StatisticsTable(StatisticsBlock.parts(block));
        java.util.Arrays.fill(table.rows, -1);
        Map<String, Column> seen = new HashMap<>();
        StatisticsBlock.read(block, new StatisticsBlock.Visitor() {
            @Override
            public void part(int part, long rows) {
                table.rows[part] = rows;
            }

            @Override
            public void raw(int part, String json) {
                PartStatistics stats = parse(json, types);
                if (stats != null) {
                    table.add(part, stats, seen);
                }
            }

            @Override
            public StatisticsBlock.ColumnSink column(String name) {
                Column column = seen.computeIfAbsent(name, table::column);
                return (part, type, nulls, nans, bounds, min, max, prefix, indexes, longMin, longMax) ->
                        column.set(part, type, nulls, nans, bounds, min, max, prefix, indexes, longMin, longMax, types);
            }
        });
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

    private Column column(String name) {
        synchronized (columns) {
            return columns.computeIfAbsent(name, k -> new Column(rows.length));
        }
    }

    private void add(int part, PartStatistics stats, Map<String, Column> seen) {
        rows[part] = stats.rows();
        for (Map.Entry<String, ColumnStatistics> e : stats.columns().entrySet()) {
            Column column = seen.computeIfAbsent(e.getKey(), this::column);
            ColumnStatistics c = e.getValue();
            column.type[part] = (byte) (c.type().ordinal() + 1);
            column.nulls[part] = c.nullCount();
            if (c.nanCount() > 0) {
                column.nans()[part] = c.nanCount();
            }
            if (c.hasBounds()) {
                Bounds b = column.bounds(c.type());
                b.present[part] = true;
                b.maxIsPrefix[part] = c.maxIsPrefix();
                switch (c.type()) {
                    case LONG -> {
                        b.longs[2 * part] = (Long) c.min();
                        b.longs[2 * part + 1] = (Long) c.max();
                    }
                    case DOUBLE -> {
                        b.doubles[2 * part] = (Double) c.min();
                        b.doubles[2 * part + 1] = (Double) c.max();
                    }
                    default -> {
                        b.objects[2 * part] = c.min();
                        b.objects[2 * part + 1] = c.max();
                    }
                }
            }
            if (!c.indexes().isEmpty()) {
                column.indexes().put(part, c.indexes());
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
        Map<Integer, Map<String, ColumnIndex>> indexes = column.indexes;
        if (indexes != null && indexes.containsKey(part)) {
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
        Bounds b = column.bounds[ColumnType.LONG.ordinal()];
        if (b == null || !b.present[part]) {
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
        Bounds b = column.bounds[type.ordinal()];
        if (b != null && b.present[part]) {
            prefix = b.maxIsPrefix[part];
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
        Map<Integer, Map<String, ColumnIndex>> all = column.indexes;
        Map<String, ColumnIndex> indexes = all == null ? Map.of() : all.getOrDefault(part, Map.of());
        long[] nans = column.nans;
        return new ColumnStatistics(type, column.nulls[part], nans == null ? 0 : nans[part], min, max,
                prefix, indexes);
    }
}
