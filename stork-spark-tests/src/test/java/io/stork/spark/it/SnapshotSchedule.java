package io.stork.spark.it;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What the writer process of {@link TwoProcessSnapshotStoreTest} commits, round by round, and what the
 * dataset holds after each round: a reader checks each query's answer against these states.
 *
 * <p>Round r writes the ids {@code r*1000 .. r*1000+9+r}, partitioned by {@code k = id % 2}: rounds
 * 1, 4, 7… overwrite the dataset, rounds 2, 5, 8… append, rounds 3, 6, 9… overwrite partition k=0 only
 * (dynamic partition overwrite, writing only even ids).
 */
final class SnapshotSchedule {

    enum Operation { OVERWRITE, APPEND, PARTITION_OVERWRITE }

    /** A state as a query sees it: row count and sum of ids. */
    record State(int round, long count, long sum) {
    }

    private SnapshotSchedule() {
    }

    static Operation operation(int round) {
        return switch (round % 3) {
            case 1 -> Operation.OVERWRITE;
            case 2 -> Operation.APPEND;
            default -> Operation.PARTITION_OVERWRITE;
        };
    }

    static long firstId(int round) {
        return round * 1000L;
    }

    static long endId(int round) {
        return round * 1000L + 10 + round;
    }

    /** The states after rounds 1..rounds (index 0 is round 1). */
    static List<State> states(int rounds) {
        TreeSet<Long> ids = new TreeSet<>();
        List<State> states = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            List<Long> written = new ArrayList<>();
            for (long id = firstId(r); id < endId(r); id++) {
                if (operation(r) != Operation.PARTITION_OVERWRITE || id % 2 == 0) {
                    written.add(id);
                }
            }
            switch (operation(r)) {
                case OVERWRITE -> ids.clear();
                case PARTITION_OVERWRITE -> ids.removeIf(id -> id % 2 == 0);
                default -> { }
            }
            ids.addAll(written);
            states.add(new State(r, ids.size(), ids.stream().mapToLong(Long::longValue).sum()));
        }
        return states;
    }
}
