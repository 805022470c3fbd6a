package io.stork.bench.spark;

import java.util.ArrayList;
import java.util.List;

/** The workloads, in the order a run executes them (a workload runs after the one whose output it reads). */
final class Workloads {

    private Workloads() {
    }

    static List<Workload> all() {
        return List.of(new ReadOnlyWorkload("read-small", InputDatasets.SMALL),
                new ReadOnlyWorkload("read-large", InputDatasets.LARGE), new TeragenWorkload(), new CopyWorkload(),
                new WordcountWorkload(), new TerasortWorkload(), new StarSchemaWriteWorkload(),
                new StarSchemaQueriesWorkload(), new OneObjectWorkload());
    }

    /** The named workloads in run order; a one-line error for an unknown name or a missing prerequisite. */
    static List<Workload> select(List<String> ids) {
        List<Workload> selected = new ArrayList<>();
        for (Workload workload : all()) {
            if (ids.contains(workload.id())) {
                selected.add(workload);
            }
        }
        for (String id : ids) {
            if (selected.stream().noneMatch(w -> w.id().equals(id))) {
                throw new IllegalArgumentException("unknown workload '" + id + "'; known: "
                        + String.join(", ", all().stream().map(Workload::id).toList()));
            }
        }
        for (Workload workload : selected) {
            if (workload.requires() != null && !ids.contains(workload.requires())) {
                throw new IllegalArgumentException("workload " + workload.id() + " reads the output of "
                        + workload.requires() + ": select both");
            }
        }
        return selected;
    }
}
