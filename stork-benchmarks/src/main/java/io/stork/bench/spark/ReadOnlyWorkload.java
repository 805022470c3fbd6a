package io.stork.bench.spark;

/** Read-only: counts the lines of a text dataset (the paper's two sizes, 10× apart). */
final class ReadOnlyWorkload implements Workload {

    private final String dataset;
    private final String id;

    ReadOnlyWorkload(String id, String dataset) {
        this.id = id;
        this.dataset = dataset;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String label() {
        return "Read-only (" + dataset + ")";
    }

    @Override
    public String run(WorkloadContext context) {
        return "lines=" + context.spark().read().text(context.input(dataset)).count();
    }
}
