package io.stork.layout.history;

import io.stork.layout.model.HistorySummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bounded, immutable record of past queries on a dataset, oldest first. Bounded because it is kept on
 * the store beside the dataset and read whole when a layout is built: adding past {@link #capacity()}
 * drops the oldest, and {@link #prune} drops queries whose decayed weight fell under a floor. It holds
 * predicate shapes and their constants, which is why capturing it must be something a user can turn off;
 * an {@link #empty} history makes every partitioner fall back to its history-free rule.
 */
public final class QueryHistory {

    public static final int DEFAULT_CAPACITY = 1000;

    private final int capacity;
    private final List<QueryRecord> queries;

    private QueryHistory(int capacity, List<QueryRecord> queries) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a query history needs a capacity >= 1, not " + capacity);
        }
        List<QueryRecord> sorted = new ArrayList<>(queries);
        sorted.sort(Comparator.comparingLong(QueryRecord::timeMillis));
        this.capacity = capacity;
        this.queries = List.copyOf(sorted.subList(Math.max(0, sorted.size() - capacity), sorted.size()));
    }

    public static QueryHistory empty() {
        return new QueryHistory(DEFAULT_CAPACITY, List.of());
    }

    public static QueryHistory of(int capacity, List<QueryRecord> queries) {
        return new QueryHistory(capacity, queries);
    }

    public int capacity() {
        return capacity;
    }

    public List<QueryRecord> queries() {
        return queries;
    }

    public boolean isEmpty() {
        return queries.isEmpty();
    }

    public int size() {
        return queries.size();
    }

    /** This history with {@code query} added, the oldest dropped past the capacity. */
    public QueryHistory with(QueryRecord query) {
        List<QueryRecord> more = new ArrayList<>(queries);
        more.add(query);
        return new QueryHistory(capacity, more);
    }

    /** This history without the queries whose weight at {@code now} is under {@code floor}. */
    public QueryHistory prune(long now, long halfLifeMillis, double floor) {
        return new QueryHistory(capacity, queries.stream()
                .filter(q -> q.weight(now, halfLifeMillis) >= floor).toList());
    }

    /** What a model built at {@code now} from this history records about it. */
    public HistorySummary summary(long now, long halfLifeMillis) {
        if (queries.isEmpty()) {
            return HistorySummary.NONE;
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        for (QueryRecord q : queries) {
            double w = q.weight(now, halfLifeMillis);
            q.constraints().keySet().forEach(c -> weights.merge(c, w, Double::sum));
        }
        return new HistorySummary(queries.size(), queries.get(0).timeMillis(),
                queries.get(queries.size() - 1).timeMillis(), halfLifeMillis, now, weights);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueryHistory h && h.capacity == capacity && h.queries.equals(queries);
    }

    @Override
    public int hashCode() {
        return 31 * capacity + queries.hashCode();
    }

    @Override
    public String toString() {
        return "QueryHistory[" + queries.size() + "/" + capacity + "]";
    }
}
