package io.stork.kafka;

import io.stork.layout.model.Column;
import io.stork.layout.model.PartitionerModel;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Kafka producer {@link Partitioner} that sends each record to the partition of its bucket under a saved
 * Stork layout model (docs/kafka-partitioner.md), so that a topic's partition p holds exactly the rows the
 * Spark writer would put in bucket p, and a consumer per partition can write one object per bucket.
 *
 * <pre>
 * props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, StorkLayoutPartitioner.class.getName());
 * props.put(StorkLayoutPartitioner.MODEL_FILE, "/etc/ingest/model.json");
 * props.put(StorkLayoutPartitioner.VALUE_FORMAT, "csv");
 * props.put(StorkLayoutPartitioner.CSV_COLUMNS, "date,index,sumHC,sumHP,type,vid,size,temp,city,region,lat,lon");
 * </pre>
 *
 * <p>The model is read once, in {@link #configure}; it is immutable, and the key readers keep no state, so
 * one instance serves every thread of the producer. A record that cannot be routed (null value, a key
 * column missing or unparsable, a topic with fewer partitions than buckets) fails its {@code send} with a
 * one-line {@link KafkaException} naming the topic and the problem: it is never routed by a guess.
 */
public final class StorkLayoutPartitioner implements Partitioner {

    /** A local path to the model JSON ({@code ModelJson.write}; a dataset's {@code _stork/layout/model.json}). */
    public static final String MODEL_FILE = "stork.layout.model.file";
    /** A dataset URI ({@code stork://bucket/table}): its {@code _stork/layout/model.json}, read through Hadoop. */
    public static final String DATASET = "stork.layout.dataset";
    /** {@code csv}, {@code json} or {@code object}: how the key columns are read from a record's value. */
    public static final String VALUE_FORMAT = "stork.layout.value.format";
    /** The CSV's column names, in order, comma-separated (format {@code csv}). */
    public static final String CSV_COLUMNS = "stork.layout.csv.columns";
    /** The CSV's delimiter, one character ({@code \t} for a tab); default {@code ,}. */
    public static final String CSV_DELIMITER = "stork.layout.csv.delimiter";
    /** {@code true}: with fewer partitions than buckets, bucket b goes to partition b mod partitions. */
    public static final String PARTITIONS_FOLD = "stork.layout.partitions.fold";
    /** Properties under this prefix are Hadoop settings (prefix removed) for loading the model of a dataset. */
    public static final String HADOOP_PREFIX = "stork.layout.hadoop.";

    private static final Logger LOG = LoggerFactory.getLogger(StorkLayoutPartitioner.class);

    /** Set once by configure (the producer calls it before any record), read by every sending thread. */
    private volatile Routing routing;

    /** What configure builds: immutable, so publishing it through one volatile write is enough. */
    private record Routing(PartitionerModel model, KeyReader reader, boolean fold) {
    }

    @Override
    public void configure(Map<String, ?> configs) {
        PartitionerSettings settings = PartitionerSettings.parse(configs);
        PartitionerModel model = ModelLoader.load(settings);
        KeyReader reader;
        try {
            reader = switch (settings.format()) {
                case PartitionerSettings.CSV -> new CsvKeyReader(model.columns(), settings.csvColumns(),
                        settings.delimiter());
                case PartitionerSettings.JSON -> new JsonKeyReader(model.columns());
                default -> new ObjectKeyReader(model.columns());
            };
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        routing = new Routing(model, reader, settings.fold());
        LOG.info("Stork layout partitioner: {} model over ({}), {} buckets, from {}; keys read from {}{}", model.kind(),
                model.columns().stream().map(c -> c.name() + " " + c.type().jsonName()).collect(Collectors.joining(", ")),
                model.buckets(), settings.modelFile() != null ? settings.modelFile() : settings.dataset(),
                reader.describe(), settings.fold() ? "; buckets fold onto fewer partitions" : "");
    }

    @Override
    public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
        Routing r = routing;
        if (r == null) {
            throw new IllegalStateException("the Stork layout partitioner was not configured");
        }
        int buckets = r.model.buckets();
        Integer count = cluster.partitionCountForTopic(topic);
        if (count == null || count < 1) {
            // The producer looks the topic up before it asks for a partition; this is a guard, not a path.
            throw new KafkaException("no partitions known for topic '" + topic + "'");
        }
        int partitions = count;
        if (partitions < buckets && !r.fold) {
            throw new KafkaException("topic '" + topic + "' has " + partitions + " partitions but the layout model has "
                    + buckets + " buckets: give the topic at least " + buckets + " partitions, or set "
                    + PARTITIONS_FOLD + "=true to send bucket b to partition b mod " + partitions);
        }
        if (value == null || (valueBytes == null && !(r.reader instanceof ObjectKeyReader))) {
            throw new KafkaException("cannot route a record of topic '" + topic + "' by its layout: the value is null");
        }
        int bucket;
        try {
            bucket = r.model.bucketOf(r.reader.key(value, valueBytes));
        } catch (IllegalArgumentException e) {
            throw new KafkaException("cannot route a record of topic '" + topic + "' by its layout: " + e.getMessage());
        }
        return bucket < partitions ? bucket : bucket % partitions;
    }

    /** The model this partitioner routes by (after configure). */
    public PartitionerModel model() {
        Routing r = routing;
        if (r == null) {
            throw new IllegalStateException("the Stork layout partitioner was not configured");
        }
        return r.model;
    }

    /** The key columns, in the model's order: what a record's value must hold. */
    public List<Column> keyColumns() {
        return model().columns();
    }

    @Override
    public void close() {
        // Nothing to release: the model is plain memory and no Hadoop client is kept.
    }
}
