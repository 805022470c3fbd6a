package io.stork.kafka;

import io.stork.layout.gridpocket.Reading;
import io.stork.layout.kdtree.KdTreeModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Array;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The jar users drop into a producer's class path (the module's shaded artifact): Stork's classes and
 * Jackson core relocated under io.stork.shaded, nothing of Kafka, Hadoop or SLF4J; and it routes on its own
 * in a class loader holding only it and kafka-clients with SLF4J's API, as a bare producer has.
 */
class ShadedJarIT {

    private static final Path JAR = Path.of(System.getProperty("stork.kafka.jar"));

    @Test
    void holdsStorksClassesAndRelocatedJacksonOnly() throws IOException {
        Set<String> classes = new TreeSet<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            jar.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")).forEach(classes::add);
        }
        assertThat(classes).contains("io/stork/kafka/StorkLayoutPartitioner.class",
                "io/stork/layout/kdtree/KdTreeModel.class", "io/stork/layout/json/ModelJson.class",
                "io/stork/shaded/com/fasterxml/jackson/core/JsonFactory.class");
        assertThat(classes).allMatch(c -> c.startsWith("io/stork/kafka/") || c.startsWith("io/stork/layout/")
                || c.startsWith("io/stork/shaded/com/fasterxml/jackson/core/"));
        System.out.printf("shaded jar: %d classes, %d KiB%n", classes.size(), JAR.toFile().length() / 1024);
    }

    @Test
    void routesInAProducerClassPathWithoutJacksonOrHadoop(@TempDir Path dir) throws Exception {
        List<Reading> readings = GridPocketModels.readings(200, 4);
        KdTreeModel model = GridPocketModels.model(readings, 16);
        Path modelFile = GridPocketModels.save(model, dir);
        List<URL> urls = new ArrayList<>(List.of(JAR.toUri().toURL()));
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("kafka-clients-") || name.startsWith("slf4j-api-")) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        assertThat(urls).hasSize(3);
        try (URLClassLoader producer = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> producer.loadClass("com.fasterxml.jackson.core.JsonFactory"))
                    .isInstanceOf(ClassNotFoundException.class);
            Class<?> type = producer.loadClass(StorkLayoutPartitioner.class.getName());
            assertThat(type.getProtectionDomain().getCodeSource().getLocation()).isEqualTo(JAR.toUri().toURL());
            Object partitioner = type.getConstructor().newInstance();
            type.getMethod("configure", Map.class).invoke(partitioner, Map.of(StorkLayoutPartitioner.MODEL_FILE,
                    modelFile.toString(), StorkLayoutPartitioner.VALUE_FORMAT, "json"));
            Class<?> clusterType = producer.loadClass("org.apache.kafka.common.Cluster");
            Object cluster = cluster(producer, "t", 16);
            for (Reading r : readings) {
                String json = GridPocketModels.json(r);
                Object partition = type.getMethod("partition", String.class, Object.class, byte[].class, Object.class,
                        byte[].class, clusterType).invoke(partitioner, "t", null, null, json,
                        json.getBytes(StandardCharsets.UTF_8), cluster);
                assertThat(partition).isEqualTo(model.bucketOf(GridPocketModels.key(r)));
            }
        }
    }

    /** Kafka's Cluster metadata built in the producer's class loader: one node, {@code n} partitions of a topic. */
    private static Object cluster(ClassLoader loader, String topic, int n) throws ReflectiveOperationException {
        Class<?> nodeType = loader.loadClass("org.apache.kafka.common.Node");
        Class<?> infoType = loader.loadClass("org.apache.kafka.common.PartitionInfo");
        Object node = nodeType.getConstructor(int.class, String.class, int.class).newInstance(1, "127.0.0.1", 9092);
        Object nodes = Array.newInstance(nodeType, 1);
        Array.set(nodes, 0, node);
        List<Object> infos = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            infos.add(infoType.getConstructor(String.class, int.class, nodeType, nodes.getClass(), nodes.getClass())
                    .newInstance(topic, p, node, nodes, nodes));
        }
        return loader.loadClass("org.apache.kafka.common.Cluster")
                .getConstructor(String.class, Collection.class, Collection.class, Set.class, Set.class)
                .newInstance("test", List.of(node), infos, Set.of(), Set.of());
    }
}
