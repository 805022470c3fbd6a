package io.stork.bench.spark;

import java.util.Arrays;
import java.util.List;

/** The median and spread of repeated measurements. */
public record Stats(double median, double min, double max, int n) {

    public static Stats of(List<? extends Number> values) {
        if (values.isEmpty()) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double[] sorted = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Stats(median, sorted[0], sorted[n - 1], n);
    }

    /** Relative spread: (max − min) / median. */
    public double spread() {
        return median == 0 ? 0 : (max - min) / median;
    }

    @Override
    public String toString() {
        return "Stats" + Arrays.toString(new double[] {median, min, max});
    }
}
