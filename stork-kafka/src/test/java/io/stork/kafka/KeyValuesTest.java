package io.stork.kafka;

import io.stork.layout.kdtree.KdTreeBuilder;
import io.stork.layout.kdtree.KdTreeModel;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;
import org.apache.kafka.common.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Text and Java values to the model's column types; timestamps in every documented form. */
class KeyValuesTest {

    private static final Column TS = Column.of("ts", ColumnType.TIMESTAMP);
    private static final long MICROS = 1_767_225_600_000_000L; // 2026-01-01T00:00:00Z

    @Test
    void timestampsFromEpochMicrosIsoInstantsOffsetsAndLocalDateTimesAsUtc() {
        for (String text : List.of("1767225600000000", "2026-01-01T00:00:00Z", "2026-01-01T01:00:00+01:00",
                "2025-12-31T19:00:00-05:00", "2026-01-01T00:00:00", "2026-01-01 00:00:00", "2026-01-01",
                "2026-01-01T00:00:00.000Z", "2026-01-01T01:00:00+01:00[Europe/Paris]")) {
            assertThat(KeyValues.parse(TS, text)).as(text).isEqualTo(MICROS);
        }
        assertThat(KeyValues.parse(TS, "2026-01-01T00:00:00.123456Z")).isEqualTo(MICROS + 123_456);
        assertThat(KeyValues.of(TS, Instant.ofEpochSecond(1_767_225_600L))).isEqualTo(MICROS);
        assertThat(KeyValues.of(TS, LocalDateTime.of(2026, 1, 1, 0, 0))).isEqualTo(MICROS);
        assertThat(KeyValues.of(TS, LocalDate.of(2026, 1, 1))).isEqualTo(MICROS);
        assertThat(KeyValues.of(TS, OffsetDateTime.of(2026, 1, 1, 1, 0, 0, 0, ZoneOffset.ofHours(1)))).isEqualTo(MICROS);
        assertThat(KeyValues.of(TS, MICROS)).isEqualTo(MICROS);
        assertThatThrownBy(() -> KeyValues.parse(TS, "1 January 2026"))
                .hasMessage("column 'ts' (timestamp): not a timestamp (epoch microseconds, or ISO-8601 date-time or "
                        + "date): '1 January 2026'");
    }

    @Test
    void numbersAreWidenedOnlyWithoutLoss() {
        Column lng = Column.of("n", ColumnType.LONG);
        Column dbl = Column.of("x", ColumnType.DOUBLE);
        assertThat(KeyValues.of(lng, 7)).isEqualTo(7L);
        assertThat(KeyValues.of(lng, BigInteger.TEN)).isEqualTo(10L);
        assertThat(KeyValues.parse(lng, " -12 ")).isEqualTo(-12L);
        assertThat(KeyValues.of(dbl, 3.5f)).isEqualTo(3.5);
        assertThat(KeyValues.parse(dbl, "-0.0")).isEqualTo(0.0);
        assertThat(KeyValues.parse(dbl, "NaN")).isEqualTo(Double.NaN);
        assertThatThrownBy(() -> KeyValues.of(lng, BigInteger.TWO.pow(70)))
                .hasMessage("column 'n' (long): out of range: " + BigInteger.TWO.pow(70));
        assertThatThrownBy(() -> KeyValues.parse(lng, "12.5")).hasMessage("column 'n' (long): not an integer: '12.5'");
        assertThatThrownBy(() -> KeyValues.of(Column.of("s", ColumnType.STRING), 5))
                .hasMessageContaining("column 's' of type string cannot hold a java.lang.Integer");
    }

    @Test
    void errorsShowAtMostFortyCharactersOfARecordOnOneLine() {
        Column lng = Column.of("n", ColumnType.LONG);
        assertThatThrownBy(() -> KeyValues.parse(lng, "x".repeat(100) + "\nsecret"))
                .hasMessage("column 'n' (long): not an integer: '" + "x".repeat(40) + "...'");
    }

    /** A model keyed on a timestamp routes JSON and CSV records whose times are written in different forms alike. */
    @Test
    void recordsWithIsoTimesGoToTheBucketOfTheirMicroseconds(@TempDir Path dir) throws IOException {
        List<Column> key = List.of(TS, Column.of("sensor", ColumnType.STRING));
        List<Object[]> sample = new ArrayList<>();
        for (int h = 0; h < 48; h++) {
            sample.add(new Object[] {MICROS + h * 3_600_000_000L, "s" + (h % 5)});
        }
        KdTreeModel model = KdTreeBuilder.of(key, 8).build(sample);
        Path file = GridPocketModels.save(model, dir);
        Cluster cluster = GridPocketModels.cluster("t", 8);
        StorkLayoutPartitioner json = new StorkLayoutPartitioner();
        json.configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file.toString(), StorkLayoutPartitioner.VALUE_FORMAT,
                "json"));
        StorkLayoutPartitioner csv = new StorkLayoutPartitioner();
        csv.configure(Map.of(StorkLayoutPartitioner.MODEL_FILE, file.toString(), StorkLayoutPartitioner.VALUE_FORMAT,
                "csv", StorkLayoutPartitioner.CSV_COLUMNS, "sensor,ts,value"));
        for (int h = 0; h < 48; h++) {
            Instant t = Instant.ofEpochSecond(1_767_225_600L + h * 3600L + 1800);
            String sensor = "s" + (h % 5);
            int expected = model.bucketOf(new Object[] {t, sensor});
            String j1 = "{\"sensor\":\"" + sensor + "\",\"ts\":\"" + t + "\"}";
            String j2 = "{\"ts\":" + (t.getEpochSecond() * 1_000_000L) + ",\"sensor\":\"" + sensor + "\"}";
            String c1 = sensor + "," + t.atOffset(ZoneOffset.ofHours(2)) + ",1.5";
            String c2 = sensor + "," + LocalDateTime.ofInstant(t, ZoneOffset.UTC) + ",1.5";
            assertThat(json.partition("t", null, null, j1, bytes(j1), cluster)).isEqualTo(expected);
            assertThat(json.partition("t", null, null, j2, bytes(j2), cluster)).isEqualTo(expected);
            assertThat(csv.partition("t", null, null, c1, bytes(c1), cluster)).isEqualTo(expected);
            assertThat(csv.partition("t", null, null, c2, bytes(c2), cluster)).isEqualTo(expected);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
