package io.stork.bench.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/** The benchmark's results as Markdown tables: one per metric, each peer with its ratio to Stork. */
final class Report {

    private final Results results;

    Report(Results results) {
        this.results = results;
    }

    String tables() {
        StringBuilder md = new StringBuilder();
        md.append("### REST calls per run (median; ×: ratio to Stork over the same API)\n\n");
        table(md, Cell::calls, v -> String.format(Locale.ROOT, "%,.0f", v), true, false);
        md.append("\n### Wall time per run (median s ± spread, (max−min)/median; ×: ratio to Stork)\n\n");
        table(md, Cell::wallSeconds, v -> String.format(Locale.ROOT, "%.1f s", v), true, true);
        md.append("\n### Cost of the calls per run (").append(results.prices().currency()).append(", ")
                .append(results.prices().name()).append("; Spark in the store's region, transfer free; ×: ratio to Stork)\n\n");
        table(md, Cell::requestCost, v -> String.format(Locale.ROOT, "%.7f", v), true, false);
        md.append("\n### Cost per run with transfer billed (").append(results.prices().currency())
                .append("; calls plus bytes in and out at the table's per-GB prices, as for Spark outside the region; ×: ratio to Stork)\n\n");
        table(md, Cell::cost, v -> String.format(Locale.ROOT, "%.7f", v), true, false);
        md.append("\n### Bytes the store received (median)\n\n");
        table(md, Cell::bytesWritten, Bytes::format, false, false);
        md.append("\n### Bytes the store copied internally (COPY: renames; median)\n\n");
        table(md, Cell::bytesCopied, Bytes::format, false, false);
        md.append("\n### Bytes the store sent (median)\n\n");
        table(md, Cell::bytesRead, Bytes::format, false, false);
        return md.toString();
    }

    private void table(StringBuilder md, Function<Cell, Stats> metric, Function<Double, String> format,
                       boolean ratios, boolean spread) {
        md.append("| workload |");
        results.scenarios().forEach(s -> md.append(' ').append(s.label()).append(" |"));
        md.append("\n|---|");
        results.scenarios().forEach(s -> md.append("---:|"));
        md.append('\n');
        for (Workload workload : results.workloads()) {
            md.append("| ").append(workload.label()).append(" |");
            for (Scenario scenario : results.scenarios()) {
                Optional<Cell> cell = results.cell(scenario.id(), workload.id());
                if (cell.isEmpty()) {
                    md.append(" (failed) |");
                    continue;
                }
                Stats stats = metric.apply(cell.get());
                md.append(' ').append(format.apply(stats.median()));
                if (spread && stats.n() > 1) {
                    md.append(String.format(Locale.ROOT, " ±%.0f%%", 100 * stats.spread()));
                }
                if (ratios) {
                    ratio(scenario, workload, metric).ifPresent(r -> md.append(' ').append(r));
                }
                md.append(" |");
            }
            md.append('\n');
        }
    }

    private Optional<String> ratio(Scenario scenario, Workload workload, Function<Cell, Stats> metric) {
        Optional<Scenario> baseline = results.baselineFor(scenario);
        if (baseline.isEmpty() || baseline.get().id().equals(scenario.id())) {
            return Optional.empty();
        }
        Optional<Cell> base = results.cell(baseline.get().id(), workload.id());
        Optional<Cell> mine = results.cell(scenario.id(), workload.id());
        if (base.isEmpty() || mine.isEmpty()) {
            return Optional.empty();
        }
        double b = metric.apply(base.get()).median();
        double m = metric.apply(mine.get()).median();
        if (b == 0) {
            return Optional.of(m == 0 ? "(×1)" : "(Stork: 0)");
        }
        return Optional.of(String.format(Locale.ROOT, "(×%.1f)", m / b));
    }

    /** Calls by type, one table per workload: what each connector spends its calls on. */
    String callsByType() {
        StringBuilder md = new StringBuilder();
        for (Workload workload : results.workloads()) {
            Set<String> types = new TreeSet<>();
            Map<Scenario, Map<String, Double>> rows = new LinkedHashMap<>();
            for (Scenario scenario : results.scenarios()) {
                results.cell(scenario.id(), workload.id()).ifPresent(c -> {
                    rows.put(scenario, c.callsByType());
                    types.addAll(c.callsByType().keySet());
                });
            }
            md.append("\n#### ").append(workload.label()).append("\n\n| scenario |");
            List<String> columns = new ArrayList<>(types);
            columns.forEach(t -> md.append(' ').append(t).append(" |"));
            md.append(" total |\n|---|");
            columns.forEach(t -> md.append("---:|"));
            md.append("---:|\n");
            rows.forEach((scenario, byType) -> {
                md.append("| ").append(scenario.label()).append(" |");
                double total = 0;
                for (String t : columns) {
                    double v = byType.getOrDefault(t, 0.0);
                    total += v;
                    md.append(' ').append(v == 0 ? "" : String.format(Locale.ROOT, "%,.0f", v)).append(" |");
                }
                md.append(String.format(Locale.ROOT, " %,.0f |%n", total));
            });
        }
        return md.toString();
    }

    /** Each scenario's settings, secrets masked. */
    String settings() {
        StringBuilder md = new StringBuilder();
        for (Scenario scenario : results.scenarios()) {
            md.append("\n**").append(scenario.label()).append("** (`").append(scenario.id()).append("`, ")
                    .append(scenario.uri("<bucket>", "<path>")).append("): ").append(scenario.notes()).append("\n\n```\n");
            scenario.printableConf().forEach((k, v) -> md.append(k).append('=').append(v).append('\n'));
            md.append("```\n");
        }
        return md.toString();
    }
}
