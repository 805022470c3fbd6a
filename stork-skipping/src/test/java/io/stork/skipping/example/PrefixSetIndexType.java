package io.stork.skipping.example;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.ColumnType;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.expr.Predicate.StartsWith;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexCollector;
import io.stork.skipping.spi.IndexType;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * An example index plug-in, as docs/data-skipping.md describes: the distinct first {@code n} characters
 * of a string column's values ({@code stork.skipping.prefixes.length}, default 2), up to 64 of them (a
 * part with more keeps none, and is judged by min/max alone). It answers equality and prefix filters
 * that min/max cannot: "mango" lies between "apple" and "zebra", but no value starts with "ma".
 * Registered in META-INF/services/io.stork.skipping.spi.IndexType; used as {@code city:prefixes}.
 */
public final class PrefixSetIndexType implements IndexType {

    public static final String NAME = "prefixes";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(ColumnType type) {
        return type == ColumnType.STRING;
    }

    @Override
    public IndexCollector newCollector(ColumnType type, Map<String, String> options) {
        int length = Integer.parseInt(options.getOrDefault("stork.skipping.prefixes.length", "2"));
        TreeSet<String> prefixes = new TreeSet<>();
        return new IndexCollector() {
            private boolean overflow;

            @Override
            public void add(Object value) {
                if (value != null && !overflow) {
                    prefixes.add(prefix((String) value, length));
                    overflow = prefixes.size() > 64;
                }
            }

            @Override
            public ColumnIndex finish() {
                return overflow ? null : new PrefixSet(length, List.copyOf(prefixes));
            }
        };
    }

    @Override
    public ColumnIndex fromJson(Object json, ColumnType type) {
        if (!(json instanceof Map<?, ?> map) || !(map.get("n") instanceof Long n) || !(map.get("p") instanceof List<?> p)) {
            throw new IllegalArgumentException("a prefix set is an object {n: length, p: [prefixes]}");
        }
        return new PrefixSet(n.intValue(), p.stream().map(String.class::cast).toList());
    }

    static String prefix(String s, int length) {
        return s.codePointCount(0, s.length()) <= length ? s : s.substring(0, s.offsetByCodePoints(0, length));
    }

    record PrefixSet(int length, List<String> prefixes) implements ColumnIndex {

        @Override
        public String type() {
            return NAME;
        }

        @Override
        public boolean mayMatch(Predicate leaf, ColumnStatistics column) {
            if (leaf instanceof Comparison cmp && cmp.op() == Op.EQ && cmp.literal() instanceof String value) {
                return prefixes.contains(prefix(value, length));
            }
            if (leaf instanceof StartsWith sw) {
                String w = sw.prefix();
                // A value starting with w has w's first n characters as its prefix when w is that long;
                // otherwise its prefix starts with w.
                return w.codePointCount(0, w.length()) >= length ? prefixes.contains(prefix(w, length))
                        : prefixes.stream().anyMatch(p -> p.startsWith(w));
            }
            return true; // anything else: not this index's business
        }

        @Override
        public Object toJson() {
            return Map.of("n", (long) length, "p", prefixes);
        }
    }
}
