package io.stork.layout.gridpocket;

import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GridPocketGeneratorTest {

    private static final long START = 1_767_225_600L; // 2026-01-01T00:00:00Z

    @Test
    void sameSeedSameData_otherSeedOtherData() {
        List<Reading> a = new GridPocketGenerator(7, 200, START, 8).readingList();
        assertThat(new GridPocketGenerator(7, 200, START, 8).readingList()).isEqualTo(a);
        assertThat(new GridPocketGenerator(8, 200, START, 8).readingList()).isNotEqualTo(a);
        assertThat(a).hasSize(1600);
    }

    /**
     * The benchmark generates one day per task, each a generator of the same seed starting a day later: the
     * days must not repeat each other's noise (it did: a gas meter's running totals were the same every
     * day, so a layout keeping a meter's week in one object compressed it as if it were one day).
     */
    @Test
    void generatorsOfConsecutiveDays_doNotRepeatTheSameReadings() {
        List<Reading> monday = new GridPocketGenerator(7, 50, START, 96).readingList();
        List<Reading> tuesday = new GridPocketGenerator(7, 50, START + 86_400, 96).readingList();
        long same = 0;
        for (int i = 0; i < monday.size(); i++) {
            Reading a = monday.get(i);
            Reading b = tuesday.get(i);
            assertThat(b.vid()).isEqualTo(a.vid());
            assertThat(b.date()).isEqualTo(a.date() + 86_400);
            if (a.sumHP() > 0 && a.sumHP() == b.sumHP() || a.temp() == b.temp()) {
                same++;
            }
        }
        assertThat(same).isZero();
    }

    @Test
    void fieldsStayWithinTheirRanges_oneReadingPerMeterEvery15Minutes() {
        GridPocketGenerator g = new GridPocketGenerator(3, 500, START, 96);
        List<Reading> all = g.readingList();
        assertThat(all).allSatisfy(r -> {
            assertThat(r.lat()).isBetween(41.3, 51.2);
            assertThat(r.lon()).isBetween(-5.2, 9.6);
            assertThat(r.region()).isBetween(1, 95);
            assertThat(r.size()).isBetween(15, 300);
            assertThat(r.type()).isIn("elec", "gaz");
            assertThat(r.temp()).isBetween(-15.0, 30.0);
            assertThat(r.sumHC()).isGreaterThanOrEqualTo(0);
            assertThat(r.sumHP()).isGreaterThanOrEqualTo(0);
            assertThat((r.date() - START) % 900).isZero();
        });
        List<Reading> meter0 = all.stream().filter(r -> r.vid() == 0).toList();
        assertThat(meter0).hasSize(96);
        for (int i = 1; i < meter0.size(); i++) {
            assertThat(meter0.get(i).date() - meter0.get(i - 1).date()).isEqualTo(900);
            assertThat(meter0.get(i).index()).isGreaterThan(meter0.get(i - 1).index());
        }
        // Consumption follows size: the larger homes' index grows faster over the day.
        double small = growth(all, 500, r -> r.size() < 50);
        double large = growth(all, 500, r -> r.size() > 100);
        assertThat(large).isGreaterThan(1.5 * small);
        // Temperature follows the place: the north is colder at the same time.
        double north = all.stream().filter(r -> r.lat() > 49.5).mapToDouble(Reading::temp).average().orElseThrow();
        double south = all.stream().filter(r -> r.lat() < 44).mapToDouble(Reading::temp).average().orElseThrow();
        assertThat(south).isGreaterThan(north + 2);
        StringWriter csv = new StringWriter();
        GridPocketGenerator.writeCsv(all.subList(0, 2), csv);
        assertThat(csv.toString().lines().toList()).hasSize(3).first()
                .isEqualTo("date,index,sumHC,sumHP,type,vid,size,temp,city,region,lat,lon");
    }

    @Test
    void metersAreDenserNearBigCities() {
        List<Meter> meters = new GridPocketGenerator(5, 20_000, START, 1).meters();
        long nearParis = meters.stream().filter(m -> km(m, 48.857, 2.352) < 20).count();
        long nearLimoges = meters.stream().filter(m -> km(m, 45.834, 1.261) < 20).count();
        long countryside = meters.stream().filter(m -> km(m, 46.6, 2.9) < 20).count(); // between cities
        assertThat(nearParis).isGreaterThan(5 * nearLimoges);
        assertThat(nearLimoges).isGreaterThan(countryside);
    }

    private static double growth(List<Reading> all, int meters, java.util.function.Predicate<Reading> which) {
        return all.stream().filter(which).collect(java.util.stream.Collectors.groupingBy(Reading::vid))
                .values().stream().mapToDouble(rs -> rs.get(rs.size() - 1).index() - rs.get(0).index())
                .average().orElseThrow();
    }

    static double km(Meter m, double lat, double lon) {
        double dLat = (m.lat() - lat) * 111.32;
        double dLon = (m.lon() - lon) * 111.32 * Math.cos(Math.toRadians(lat));
        return Math.sqrt(dLat * dLat + dLon * dLon);
    }
}
