package io.stork.layout.gridpocket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;

/**
 * GridPocket-style smart-meter data, after the paper's metergen: meters over metropolitan France, denser
 * around big cities, each reporting every 15 minutes. Deterministic per seed. Correlations kept because
 * layouts and skipping are judged on them: temperature follows season, hour and latitude; consumption
 * follows size, electric heating against temperature, and the hour of the day.
 */
public final class GridPocketGenerator {

    public static final long STEP_SECONDS = 900;

    private final long seed;
    private final List<Meter> meters;
    private final long startSeconds;
    private final int steps;

    /**
     * {@code meters} meters, {@code steps} readings each, every 15 minutes from {@code startSeconds}:
     * {@code meters × steps} readings in all.
     */
    public GridPocketGenerator(long seed, int meters, long startSeconds, int steps) {
        if (meters < 1 || steps < 1) {
            throw new IllegalArgumentException("a generator needs at least one meter and one step, not " + meters
                    + " and " + steps);
        }
        this.seed = seed;
        this.startSeconds = startSeconds;
        this.steps = steps;
        this.meters = placeMeters(new Random(seed), meters);
    }

    public List<Meter> meters() {
        return meters;
    }

    public long startSeconds() {
        return startSeconds;
    }

    public long endSeconds() {
        return startSeconds + (steps - 1) * STEP_SECONDS;
    }

    /** All readings, time-major (every meter at one time, then the next time): the order they arrive in. */
    public Iterable<Reading> readings() {
        return () -> new Iterator<>() {
            // The noise depends on the start as well as the seed: generators of consecutive days (the
            // benchmark makes one per day and executor task) must not repeat the same noise every day, which
            // would make a meter's week compress as if it were one day.
            private final Random r = new Random((seed * 31 + 7) * 1_000_003L + startSeconds);
            private final double[] index = new double[meters.size()];
            private final double[] hc = new double[meters.size()];
            private final double[] hp = new double[meters.size()];
            private int step;
            private int meter;

            {
                for (int i = 0; i < index.length; i++) {
                    index[i] = 1000 + 40_000 * r.nextDouble();
                }
            }

            @Override
            public boolean hasNext() {
                return step < steps;
            }

            @Override
            public Reading next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Meter m = meters.get(meter);
                long t = startSeconds + step * STEP_SECONDS;
                double hour = (t % 86_400) / 3600.0;
                if (hour < 0.25) {
                    hc[meter] = 0;
                    hp[meter] = 0;
                }
                double temp = temperature(t, m.lat()) + r.nextGaussian() * 0.5;
                double kwh = consumption(m, temp, hour) * (0.8 + 0.4 * r.nextDouble());
                index[meter] += kwh;
                if (hour >= 22 || hour < 6) {
                    hc[meter] += kwh;
                } else {
                    hp[meter] += kwh;
                }
                Reading reading = new Reading(t, index[meter], hc[meter], hp[meter], m.type(), m.vid(), m.size(),
                        temp, m.city().name(), m.city().region(), m.lat(), m.lon());
                if (++meter == meters.size()) {
                    meter = 0;
                    step++;
                }
                return reading;
            }
        };
    }

    public List<Reading> readingList() {
        List<Reading> all = new ArrayList<>(meters.size() * steps);
        readings().forEach(all::add);
        return all;
    }

    /** CSV with a header line, the paper's field order. */
    public static void writeCsv(Iterable<Reading> readings, Writer out) {
        try {
            out.write(String.join(",", Reading.COLUMNS));
            out.write('\n');
            for (Reading r : readings) {
                out.write(r.toCsv());
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** °C: mean 12, coldest mid-January, warmest mid-July, 0.6° colder per degree north, 15h peak. */
    static double temperature(long epochSeconds, double lat) {
        double day = (epochSeconds / 86_400.0) % 365.25;
        double hour = (epochSeconds % 86_400) / 3600.0;
        return 12 - 8 * Math.cos(2 * Math.PI * (day - 15) / 365.25) - 0.6 * (lat - 46)
                + 4 * Math.cos(2 * Math.PI * (hour - 15) / 24);
    }

    /** kWh per 15 minutes: appliances by size, electric heating under 17 °C, morning and evening peaks. */
    static double consumption(Meter m, double temp, double hour) {
        double base = m.size() * 0.0009;
        double heating = "elec".equals(m.type()) ? m.size() * 0.0006 * Math.max(0, 17 - temp) : 0;
        double daily = (hour >= 7 && hour < 9) || (hour >= 18 && hour < 22) ? 1.6 : hour < 6 ? 0.6 : 1.0;
        return (base + heating) * daily;
    }

    private static List<Meter> placeMeters(Random r, int count) {
        List<City> cities = City.FRANCE;
        double total = cities.stream().mapToDouble(City::weight).sum();
        List<Meter> meters = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean rural = r.nextDouble() < 0.15;
            City c = rural ? cities.get(r.nextInt(cities.size())) : pick(cities, total, r.nextDouble() * total);
            // Bigger metros spread wider; the rural share fills the land between cities thinly.
            double sigmaKm = rural ? 45 : 3 + 2 * Math.sqrt(c.weight() / 100);
            double lat = clamp(c.lat() + r.nextGaussian() * sigmaKm / 111.32, 41.4, 51.1);
            double lon = clamp(c.lon() + r.nextGaussian() * sigmaKm / (111.32 * Math.cos(Math.toRadians(c.lat()))),
                    -5.1, 9.5);
            String type = r.nextDouble() < 0.65 ? "elec" : "gaz";
            // City flats are smaller than rural houses.
            int size = (int) clamp(Math.round((rural ? 95 : 60) * Math.exp(0.35 * r.nextGaussian())), 15, 300);
            meters.add(new Meter(i, type, size, c, lat, lon));
        }
        return List.copyOf(meters);
    }

    private static City pick(List<City> cities, double total, double x) {
        for (City c : cities) {
            x -= c.weight();
            if (x < 0) {
                return c;
            }
        }
        return cities.get(cities.size() - 1);
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
