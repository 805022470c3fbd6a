package io.stork.bench.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** Grouped bar charts (workloads × scenarios) of the medians, as PNG. */
final class Charts {

    private Charts() {
    }

    static void write(Results results, Path directory, String prefix) throws IOException {
        chart(results, directory.resolve(prefix + "-calls"), "REST calls per run (median, log scale)", "calls",
                true, cell -> cell.calls().median());
        chart(results, directory.resolve(prefix + "-wall-time"), "Wall time (median)", "seconds", false,
                cell -> cell.wallSeconds().median());
        chart(results, directory.resolve(prefix + "-cost"), "Cost of the calls per run, " + results.prices().name()
                + " (median, log scale)", results.prices().currency(), true, cell -> cell.requestCost().median());
        chart(results, directory.resolve(prefix + "-bytes-copied"), "Bytes copied inside the store (median)", "MiB",
                false, cell -> cell.bytesCopied().median() / (1024 * 1024));
    }

    private static void chart(Results results, Path file, String title, String yTitle, boolean log,
                              Function<Cell, Double> value) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1400).height(600).title(title)
                .xAxisTitle("workload").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setYAxisLogarithmic(log);
        chart.getStyler().setXAxisLabelRotation(20);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        List<String> workloads = results.workloads().stream().map(Workload::id).toList();
        for (Scenario scenario : results.scenarios()) {
            List<Double> values = new ArrayList<>();
            for (String workload : workloads) {
                double v = results.cell(scenario.id(), workload).map(value).orElse(Double.NaN);
                // A log axis cannot show 0 (e.g. no bytes copied): draw it at the axis floor.
                values.add(Double.isNaN(v) ? 0.0 : log && v <= 0 ? 1e-9 : v);
            }
            chart.addSeries(scenario.label(), workloads, values);
        }
        if (log) {
            chart.getStyler().setYAxisMin(minPositive(results, value) / 2);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static double minPositive(Results results, Function<Cell, Double> value) {
        double min = Double.MAX_VALUE;
        for (Scenario s : results.scenarios()) {
            for (Workload w : results.workloads()) {
                double v = results.cell(s.id(), w.id()).map(value).orElse(Double.NaN);
                if (v > 0) {
                    min = Math.min(min, v);
                }
            }
        }
        return min == Double.MAX_VALUE ? 1 : min;
    }
}
