package io.stork.layout.gridpocket;

import java.util.List;
import java.util.Locale;

/**
 * One meter reading, the fields of the paper's table 2.3a: date (epoch seconds), index (kWh, cumulative),
 * sumHC / sumHP (kWh since midnight UTC in off-peak / peak hours), type, vid, size (m²), temp (°C), city,
 * region (department 1..95), lat, lon.
 */
public record Reading(long date, double index, double sumHC, double sumHP, String type, long vid, int size,
                      double temp, String city, int region, double lat, double lon) {

    public static final List<String> COLUMNS = List.of("date", "index", "sumHC", "sumHP", "type", "vid", "size",
            "temp", "city", "region", "lat", "lon");

    public Object[] toRow() {
        return new Object[] {date, index, sumHC, sumHP, type, vid, (long) size, temp, city, (long) region, lat, lon};
    }

    public String toCsv() {
        return String.format(Locale.ROOT, "%d,%.3f,%.3f,%.3f,%s,%d,%d,%.2f,%s,%d,%.6f,%.6f", date, index, sumHC, sumHP,
                type, vid, size, temp, city, region, lat, lon);
    }
}
