package io.stork.bench.spark;

/** Terasort (read, shuffle, write): sorts Teragen's output of the same run by key. */
final class TerasortWorkload implements Workload {

    @Override
    public String id() {
        return "terasort";
    }

    @Override
    public String label() {
        return "Terasort";
    }

    @Override
    public String requires() {
        return "teragen";
    }

    @Override
    public String run(WorkloadContext context) {
        context.spark().read().text(context.output(TeragenWorkload.OUTPUT)).orderBy("value")
                .write().text(context.output("terasort"));
        return "";
    }

    @Override
    public String verify(WorkloadContext context) {
        return "records=" + context.spark().read().text(context.output("terasort")).count();
    }
}
