package io.stork.bench.spark;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** All runs of one workload in one scenario, summarised. */
public record Cell(String scenario, String workload, List<Measurement> runs, PriceTable prices) {

    public Stats wallSeconds() {
        return Stats.of(runs.stream().map(m -> m.wallMillis() / 1000.0).toList());
    }

    public Stats calls() {
        return Stats.of(runs.stream().map(Measurement::totalCalls).toList());
    }

    public Stats bytesWritten() {
        return Stats.of(runs.stream().map(Measurement::bytesWritten).toList());
    }

    public Stats bytesRead() {
        return Stats.of(runs.stream().map(Measurement::bytesRead).toList());
    }

    public Stats bytesCopied() {
        return Stats.of(runs.stream().map(Measurement::bytesCopied).toList());
    }

    public Stats requestCost() {
        return Stats.of(runs.stream().map(m -> prices.requestCost(m.calls())).toList());
    }

    public Stats cost() {
        return Stats.of(runs.stream().map(m -> prices.cost(m.calls(), m.bytesWritten(), m.bytesRead())).toList());
    }

    /** Median calls of each type over the runs. */
    public Map<String, Double> callsByType() {
        TreeSet<String> types = new TreeSet<>();
        runs.forEach(m -> types.addAll(m.calls().keySet()));
        Map<String, Double> medians = new TreeMap<>();
        for (String type : types) {
            medians.put(type, Stats.of(runs.stream().map(m -> m.calls().getOrDefault(type, 0L)).toList()).median());
        }
        return medians;
    }
}
