package io.stork.bench.spark;

/** Copy: reads the small text dataset and writes it back (in as many objects as Spark makes read splits). */
final class CopyWorkload implements Workload {

    @Override
    public String id() {
        return "copy";
    }

    @Override
    public String label() {
        return "Copy";
    }

    @Override
    public String run(WorkloadContext context) {
        context.spark().read().text(context.input(InputDatasets.SMALL)).write().text(context.output("copy"));
        return "";
    }

    @Override
    public String verify(WorkloadContext context) {
        return "lines=" + context.spark().read().text(context.output("copy")).count();
    }
}
