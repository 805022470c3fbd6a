package io.stork.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stork.layout.gridpocket.Reading;
import io.stork.layout.kdtree.KdTreeModel;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ingest path against a real Kafka broker (KRaft, one node, started from the kafka_2.13 jars): a
 * KafkaProducer with the partitioner and a saved model sends GridPocket readings as CSV lines and as JSON
 * objects to topics of as many partitions as the model has buckets; every partition is then read back and
 * each record's key, parsed independently of the partitioner, must belong to that partition's bucket.
 */
class StorkLayoutPartitionerIT {

    private static final int BUCKETS = 16;
    private static final int METERS = 500;
    private static final int STEPS = 8;

    @TempDir
    static Path dir;
    private static KRaftBroker broker;
    private static List<Reading> readings;
    private static KdTreeModel model;
    private static Path modelFile;

    @BeforeAll
    static void start() throws Exception {
        long t0 = System.nanoTime();
        broker = KRaftBroker.start(dir);
        System.out.printf("broker: formatted and started in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        readings = GridPocketModels.readings(METERS, STEPS);
        model = GridPocketModels.model(readings, BUCKETS);
        modelFile = GridPocketModels.save(model, dir);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void csvReadingsLandInThePartitionOfTheirBucket() throws Exception {
        String topic = "readings-csv";
        broker.createTopic(topic, BUCKETS);
        List<String> lines = readings.stream().map(Reading::toCsv).toList();
        produceAndCheck(topic, lines, Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "csv",
                StorkLayoutPartitioner.CSV_COLUMNS, GridPocketModels.CSV_COLUMNS), GridPocketModels::keyOfCsv);
    }

    @Test
    void jsonReadingsLandInThePartitionOfTheirBucket() throws Exception {
        String topic = "readings-json";
        broker.createTopic(topic, BUCKETS);
        List<String> objects = readings.stream().map(GridPocketModels::json).toList();
        ObjectMapper mapper = new ObjectMapper();
        Function<String, Object[]> keyOfJson = json -> {
            try {
                JsonNode n = mapper.readTree(json);
                return new Object[] {n.get("date").asLong(), n.get("type").asText(), n.get("lat").asDouble(),
                        n.get("lon").asDouble()};
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        produceAndCheck(topic, objects, Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "json"), keyOfJson);
    }

    @Test
    void aRecordThatCannotBeRoutedFailsItsSend_andATopicWithFewerPartitionsFailsTheFirstRecord() throws Exception {
        broker.createTopic("readings-bad", BUCKETS);
        broker.createTopic("readings-8", 8);
        try (KafkaProducer<String, String> producer = producer(Map.of(StorkLayoutPartitioner.VALUE_FORMAT, "csv",
                StorkLayoutPartitioner.CSV_COLUMNS, GridPocketModels.CSV_COLUMNS))) {
            String line = readings.get(0).toCsv();
            String noLon = line.substring(0, line.lastIndexOf(','));
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("readings-bad", noLon)))
                    .isInstanceOf(KafkaException.class)
                    .hasMessage("cannot route a record of topic 'readings-bad' by its layout: column 'lon' (double) is "
                            + "missing: it is CSV field 12 of 12 and the line has 11");
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("readings-8", line)))
                    .isInstanceOf(KafkaException.class)
                    .hasMessageStartingWith("topic 'readings-8' has 8 partitions but the layout model has 16 buckets");
            producer.send(new ProducerRecord<>("readings-bad", line)).get();
        }
        // Only the good record reached the topic: nothing was routed by a guess.
        Map<Integer, List<String>> read = consumeAll("readings-bad", BUCKETS, 1);
        assertThat(read.values().stream().mapToInt(List::size).sum()).isEqualTo(1);
        assertThat(consumeAll("readings-8", 8, 0).values().stream().mapToInt(List::size).sum()).isZero();
    }

    private static void produceAndCheck(String topic, List<String> values, Map<String, String> format,
                                        Function<String, Object[]> independentKey) throws Exception {
        long t0 = System.nanoTime();
        List<Future<RecordMetadata>> sent = new ArrayList<>(values.size());
        try (KafkaProducer<String, String> producer = producer(format)) {
            for (String v : values) {
                sent.add(producer.send(new ProducerRecord<>(topic, v)));
            }
            producer.flush();
        }
        for (int i = 0; i < sent.size(); i++) {
            assertThat(sent.get(i).get().partition()).isEqualTo(model.bucketOf(independentKey.apply(values.get(i))));
        }
        long produced = System.nanoTime();

        Map<Integer, List<String>> read = consumeAll(topic, BUCKETS, values.size());
        long consumed = System.nanoTime();
        int total = 0;
        for (Map.Entry<Integer, List<String>> e : read.entrySet()) {
            for (String v : e.getValue()) {
                assertThat(model.bucketOf(independentKey.apply(v))).as("partition %d: %s", e.getKey(), v)
                        .isEqualTo(e.getKey());
            }
            total += e.getValue().size();
        }
        assertThat(total).isEqualTo(values.size());
        Set<Integer> sampleBuckets = new TreeSet<>();
        for (Object[] key : GridPocketModels.sample(readings)) {
            sampleBuckets.add(model.bucketOf(key));
        }
        Set<Integer> nonEmpty = new TreeSet<>();
        read.forEach((p, records) -> {
            if (!records.isEmpty()) {
                nonEmpty.add(p);
            }
        });
        assertThat(nonEmpty).containsAll(sampleBuckets).hasSize(BUCKETS);
        Map<Integer, Integer> perPartition = new TreeMap<>();
        read.forEach((p, records) -> perPartition.put(p, records.size()));
        System.out.printf("%s: %d records into %d partitions (%d buckets), produced in %d ms, all partitions read "
                        + "back in %d ms; records per partition %s%n", topic, values.size(), read.size(), BUCKETS,
                (produced - t0) / 1_000_000, (consumed - produced) / 1_000_000, perPartition.values());
    }

    private static KafkaProducer<String, String> producer(Map<String, String> format) {
        Map<String, Object> props = new HashMap<>(format);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, StorkLayoutPartitioner.class.getName());
        props.put(StorkLayoutPartitioner.MODEL_FILE, modelFile.toString());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    /** Every record of every partition, read from the start without a group, until {@code expected} arrived. */
    private static Map<Integer, List<String>> consumeAll(String topic, int partitions, int expected) {
        Map<Integer, List<String>> read = new TreeMap<>();
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
            read.put(p, new ArrayList<>());
        }
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<TopicPartition, Long> end = consumer.endOffsets(all);
            long total = end.values().stream().mapToLong(Long::longValue).sum();
            assertThat(total).as("records in %s", topic).isEqualTo(expected);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int count = 0;
            while (count < total && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    read.get(r.partition()).add(r.value());
                    count++;
                }
            }
        }
        return read;
    }
}
