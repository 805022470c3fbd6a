package io.stork.bench.layout;

import io.stork.bench.StoreReads;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The layout benchmark's settings. The default size runs in minutes on two cores; {@code --paper} takes the
 * IOStack paper's (1,000,000 meters, 91 days of 15-minute readings: 8.7 billion rows, about 1 TB as CSV),
 * which needs a cluster and its disks, not this machine.
 *
 * @param meters         meters (GridPocketGenerator)
 * @param days           days of readings, 96 per meter and day
 * @param objects        objects per batch (buckets, Delta files) to compare at
 * @param queries        measuring queries per query class
 * @param historyQueries queries per box size in the history the k-d tree with history is built from
 * @param windowSteps    the queries' time window, in 15-minute steps
 * @param runs           measuring runs (medians)
 * @param master         Spark's master
 * @param wholeObjectSize Stork's {@code fs.stork.read.whole.object.size}: parts up to this size are fetched
 *                       whole by their first read (Stork's default 1M); 0 reads column chunks by range
 */
record LayoutOptions(int meters, int days, List<Integer> objects, int queries, int historyQueries, int windowSteps,
                     int runs, String name, String command, long seed, String master,
                     String wholeObjectSize) {

    private static final Set<String> KNOWN = Set.of("meters", "days", "objects", "queries", "history", "window",
            "runs", "name", "command", "seed", "paper", "master", "whole-object-size");

    static LayoutOptions parse(String[] args) {
        Map<String, String> o = StoreReads.options(args);
        o.keySet().stream().filter(k -> !KNOWN.contains(k)).findFirst().ifPresent(k -> {
            throw new IllegalArgumentException("unknown option --" + k + " (known: " + KNOWN + ")");
        });
        boolean paper = Boolean.parseBoolean(o.getOrDefault("paper", "false"));
        return new LayoutOptions(
                Integer.parseInt(o.getOrDefault("meters", paper ? "1000000" : "1500")),
                Integer.parseInt(o.getOrDefault("days", paper ? "91" : "7")),
                Arrays.stream(o.getOrDefault("objects", "32,64,128").split(",")).map(String::trim)
                        .map(Integer::parseInt).toList(),
                Integer.parseInt(o.getOrDefault("queries", "10")),
                Integer.parseInt(o.getOrDefault("history", "100")),
                Integer.parseInt(o.getOrDefault("window", "96")),
                Integer.parseInt(o.getOrDefault("runs", "1")),
                o.getOrDefault("name", "layouts"),
                o.getOrDefault("command", "bash scripts/bench-layout.sh"),
                Long.parseLong(o.getOrDefault("seed", "42")),
                o.getOrDefault("master", "local[2]"),
                o.getOrDefault("whole-object-size", "1M"));
    }

    long rows() {
        return (long) meters * days * 96;
    }

    int steps() {
        return days * 96;
    }
}
