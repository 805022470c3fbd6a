package io.stork.kafka;

import io.stork.layout.gridpocket.Reading;
import io.stork.layout.kdtree.KdTreeModel;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.stork.kafka.GridPocketModels.CSV_COLUMNS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Routing by the three value formats against a k-d tree built from GridPocket readings, and its errors. */
class StorkLayoutPartitionerTest {

    private static final String TOPIC = "readings";
    private static final int BUCKETS = 16;

    @TempDir
    static Path dir;
    private static List<Reading> readings;
    private static KdTreeModel model;
    private static Path modelFile;

    @BeforeAll
    static void model() throws IOException {
        readings = GridPocketModels.readings(250, 8);
        model = GridPocketModels.model(readings, BUCKETS);
        modelFile = GridPocketModels.save(model, dir);
    }

    @Test
    void csvLinesGoToTheBucketOfTheirKey() {
        StorkLayoutPartitioner p = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "csv",
                StorkLayoutPartitioner.CSV_COLUMNS, CSV_COLUMNS));
        Cluster cluster = GridPocketModels.cluster(TOPIC, BUCKETS);
        Set<Integer> used = new TreeSet<>();
        for (Reading r : readings) {
            String line = r.toCsv() + "\n";
            int partition = p.partition(TOPIC, null, null, line, bytes(line), cluster);
            assertThat(partition).isEqualTo(model.bucketOf(GridPocketModels.keyOfCsv(line)));
            used.add(partition);
        }
        assertThat(used).hasSize(BUCKETS);
        assertThat(p.model()).isEqualTo(model);
    }

    @Test
    void jsonObjectsGoToTheBucketOfTheirKey_otherFieldsAndNestingSkipped() {
        StorkLayoutPartitioner p = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "json"));
        Cluster cluster = GridPocketModels.cluster(TOPIC, BUCKETS);
        Set<Integer> used = new TreeSet<>();
        for (Reading r : readings) {
            String json = GridPocketModels.json(r);
            int partition = p.partition(TOPIC, null, null, json, bytes(json), cluster);
            assertThat(partition).as(json).isEqualTo(model.bucketOf(GridPocketModels.key(r)));
            used.add(partition);
        }
        assertThat(used).hasSize(BUCKETS);
    }

    @Test
    void mapsArraysAndListsGoToTheBucketOfTheirKey() {
        StorkLayoutPartitioner p = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "object"));
        Cluster cluster = GridPocketModels.cluster(TOPIC, BUCKETS);
        for (Reading r : readings) {
            int expected = model.bucketOf(GridPocketModels.key(r));
            Map<String, Object> map = new HashMap<>();
            map.put("date", (int) r.date()); // an Integer where the column is long: widened
            map.put("type", r.type());
            map.put("lat", Double.toString(r.lat())); // text: parsed
            map.put("lon", r.lon());
            map.put("city", r.city());
            assertThat(p.partition(TOPIC, null, null, map, null, cluster)).isEqualTo(expected);
            Object[] array = GridPocketModels.key(r);
            assertThat(p.partition(TOPIC, null, null, array, null, cluster)).isEqualTo(expected);
            assertThat(p.partition(TOPIC, null, null, Arrays.asList(array), null, cluster)).isEqualTo(expected);
        }
    }

    @Test
    void quotedFieldsOtherDelimitersAndNullsAreRead() {
        StorkLayoutPartitioner p = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "csv",
                StorkLayoutPartitioner.CSV_COLUMNS, "lat, type, note,date,lon", StorkLayoutPartitioner.CSV_DELIMITER,
                "\\t"));
        Cluster cluster = GridPocketModels.cluster(TOPIC, BUCKETS);
        Reading r = readings.get(17);
        String line = r.lat() + "\t\"" + r.type() + "\"\t\"a \"\"quoted\"\"\tnote\"\t" + r.date() + "\t" + r.lon() + "\r\n";
        assertThat(p.partition(TOPIC, null, null, line, bytes(line), cluster))
                .isEqualTo(model.bucketOf(GridPocketModels.key(r)));
        // An empty field is a null key value, routed as the writer routes a null (lowest side of its splits).
        String nullType = r.lat() + "\t\t\t" + r.date() + "\t" + r.lon();
        assertThat(p.partition(TOPIC, null, null, nullType, bytes(nullType), cluster))
                .isEqualTo(model.bucketOf(new Object[] {r.date(), null, r.lat(), r.lon()}));
    }

    @Test
    void fewerPartitionsThanBucketsFailNamingTopicPartitionsAndBuckets_orFoldWhenAsked() {
        String line = readings.get(3).toCsv();
        StorkLayoutPartitioner strict = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "csv",
                StorkLayoutPartitioner.CSV_COLUMNS, CSV_COLUMNS));
        assertThatThrownBy(() -> strict.partition(TOPIC, null, null, line, bytes(line), GridPocketModels.cluster(TOPIC, 8)))
                .isInstanceOf(KafkaException.class)
                .hasMessage("topic 'readings' has 8 partitions but the layout model has 16 buckets: give the topic at "
                        + "least 16 partitions, or set stork.layout.partitions.fold=true to send bucket b to partition "
                        + "b mod 8");
        // More partitions than buckets: the bucket itself (partitions past the buckets stay empty).
        assertThat(strict.partition(TOPIC, null, null, line, bytes(line), GridPocketModels.cluster(TOPIC, 20)))
                .isEqualTo(model.bucketOf(GridPocketModels.keyOfCsv(line)));

        StorkLayoutPartitioner folding = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "csv",
                StorkLayoutPartitioner.CSV_COLUMNS, CSV_COLUMNS, StorkLayoutPartitioner.PARTITIONS_FOLD, "true"));
        Cluster five = GridPocketModels.cluster(TOPIC, 5);
        for (Reading r : readings.subList(0, 300)) {
            String l = r.toCsv();
            assertThat(folding.partition(TOPIC, null, null, l, bytes(l), five))
                    .isEqualTo(model.bucketOf(GridPocketModels.keyOfCsv(l)) % 5);
        }
    }

    @Test
    void recordsThatCannotBeRoutedFailInOneLineNamingColumnAndTopic() {
        Cluster cluster = GridPocketModels.cluster(TOPIC, BUCKETS);
        StorkLayoutPartitioner csv = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "csv",
                StorkLayoutPartitioner.CSV_COLUMNS, CSV_COLUMNS));
        String line = readings.get(0).toCsv();
        String shortLine = line.substring(0, line.lastIndexOf(','));
        assertFails(csv, shortLine, cluster, "cannot route a record of topic 'readings' by its layout: column 'lon' "
                + "(double) is missing: it is CSV field 12 of 12 and the line has 11");
        String badLat = line.replaceFirst(",[0-9.]+,([0-9.-]+)$", ",4x.5,$1");
        assertFails(csv, badLat, cluster, "cannot route a record of topic 'readings' by its layout: column 'lat' "
                + "(double): not a number: '4x.5'");
        String badDate = "yesterday" + line.substring(line.indexOf(','));
        assertFails(csv, badDate, cluster, "column 'date' (long): not an integer: 'yesterday'");
        assertFails(csv, CSV_COLUMNS, cluster, "column 'date' (long): not an integer: 'date'"); // a header line
        assertFails(csv, "1767225600,1,2,3,\"elec,4", cluster, "CSV field 5 has no closing quote");
        assertThatThrownBy(() -> csv.partition(TOPIC, null, null, null, null, cluster))
                .isInstanceOf(KafkaException.class)
                .hasMessage("cannot route a record of topic 'readings' by its layout: the value is null");

        StorkLayoutPartitioner json = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "json"));
        assertFails(json, "{\"date\":1767225600,\"type\":\"gaz\",\"lat\":45.1}", cluster,
                "column 'lon' (double) is missing from the JSON object");
        assertFails(json, "{\"date\":1767225600.5,\"type\":\"gaz\",\"lat\":45.1,\"lon\":2}", cluster,
                "column 'date' (long): expected an integer, found a fractional number (1767225600.5)");
        assertFails(json, "{\"date\":1767225600,\"type\":7,\"lat\":45.1,\"lon\":2}", cluster,
                "column 'type' (string): expected a string, found a number");
        assertFails(json, "{\"date\":1767225600,\"type\":\"gaz\",\"lat\":\"north\",\"lon\":2}", cluster,
                "column 'lat' (double): not a number: 'north'");
        assertFails(json, "[1767225600,\"gaz\",45.1,2]", cluster, "the value is not a JSON object");
        assertFails(json, "{\"date\":1767225600,\"type\":\"gaz\",\"lat\":", cluster, "the value is not valid JSON");

        StorkLayoutPartitioner object = partitioner(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "object"));
        Map<String, Object> noLon = new LinkedHashMap<>(Map.of("date", 1L, "type", "gaz", "lat", 45.0));
        assertThatThrownBy(() -> object.partition(TOPIC, null, null, noLon, null, cluster))
                .hasMessageEndingWith("column 'lon' (double) is missing from the Map value");
        assertThatThrownBy(() -> object.partition(TOPIC, null, null, new Object[] {1L, "gaz", 45.0}, null, cluster))
                .hasMessageEndingWith("the value holds 3 values; the layout's key [date, type, lat, lon] has 4");
        assertThatThrownBy(() -> object.partition(TOPIC, null, null, new Object[] {1.5, "gaz", 45.0, 2.0}, null, cluster))
                .hasMessageContaining("column 'date' of type long cannot hold a java.lang.Double");
        assertThatThrownBy(() -> object.partition(TOPIC, null, null, "a string", null, cluster))
                .hasMessageEndingWith("the value is a java.lang.String, not a Map, Object[] or List "
                        + "(stork.layout.value.format=object)");
        assertThatThrownBy(() -> object.partition(TOPIC, null, null, null, null, cluster))
                .hasMessageEndingWith("the value is null");
    }

    private static void assertFails(StorkLayoutPartitioner p, String value, Cluster cluster, String message) {
        assertThatThrownBy(() -> p.partition(TOPIC, null, null, value, bytes(value), cluster))
                .isInstanceOf(KafkaException.class)
                .hasMessageStartingWith("cannot route a record of topic 'readings' by its layout: ")
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    private static StorkLayoutPartitioner partitioner(Map<String, String> settings) {
        Map<String, Object> configs = new HashMap<>(settings);
        configs.put(StorkLayoutPartitioner.MODEL_FILE, modelFile.toString());
        StorkLayoutPartitioner p = new StorkLayoutPartitioner();
        p.configure(configs);
        return p;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
