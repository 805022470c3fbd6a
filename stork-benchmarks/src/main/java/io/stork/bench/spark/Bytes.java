package io.stork.bench.spark;

import java.util.Locale;

/** Byte counts for people: {@code 64 MiB}, {@code 1.5 GiB}. */
final class Bytes {

    private Bytes() {
    }

    static String format(double bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int unit = 0;
        while (Math.abs(bytes) >= 1024 && unit < units.length - 1) {
            bytes /= 1024;
            unit++;
        }
        return unit == 0 ? String.format(Locale.ROOT, "%.0f B", bytes)
                : String.format(Locale.ROOT, bytes >= 100 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
    }
}
