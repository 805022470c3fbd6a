package io.stork.layout.history;

import io.stork.layout.model.Range;

import java.util.Map;
import java.util.TreeMap;

/**
 * One past query on a dataset: when it ran and, per column it constrained, the range its predicates
 * allowed (open ends where only one side was bounded). Columns the query did not constrain are absent.
 * Values are in canonical form ({@link io.stork.layout.model.ColumnType}).
 */
public record QueryRecord(long timeMillis, Map<String, Range> constraints) {

    public QueryRecord {
        constraints = Map.copyOf(new TreeMap<>(constraints));
    }

    public static QueryRecord of(long timeMillis, Map<String, Range> constraints) {
        return new QueryRecord(timeMillis, constraints);
    }

    /** The constraint on {@code column}, or {@link Range#ALL} if the query left it free. */
    public Range on(String column) {
        return constraints.getOrDefault(column, Range.ALL);
    }

    /** Weight of this query at {@code now}: 1 when it ran, halved every {@code halfLifeMillis} since. */
    public double weight(long now, long halfLifeMillis) {
        if (halfLifeMillis <= 0) {
            return 1.0;
        }
        long age = Math.max(0, now - timeMillis);
        return Math.pow(0.5, (double) age / halfLifeMillis);
    }
}
