package io.stork.layout.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a model was built from, saved with it: how many past queries, their time span, the half-life that
 * weighed them, when the model was built, and per column the decayed weight of the queries that
 * constrained it. It holds no constants of any query, so it says which columns the layout was shaped for
 * without repeating what was asked. {@link #NONE} for a model built without history.
 */
public record HistorySummary(int queries, long oldestMillis, long newestMillis, long halfLifeMillis,
                             long builtAtMillis, Map<String, Double> columnWeights) {

    public static final HistorySummary NONE = new HistorySummary(0, 0, 0, 0, 0, Map.of());

    public HistorySummary {
        if (queries < 0 || halfLifeMillis < 0) {
            throw new IllegalArgumentException("a history summary needs queries >= 0 and a half-life >= 0");
        }
        columnWeights = Map.copyOf(new TreeMap<>(columnWeights));
    }

    public boolean isEmpty() {
        return queries == 0;
    }
}
