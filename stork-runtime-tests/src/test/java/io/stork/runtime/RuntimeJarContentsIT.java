package io.stork.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime jar against the jars a Spark 4.1.2 cluster already has (its distribution's {@code jars/}) and
 * the peers users run beside it (hadoop-aws and its AWS SDK, spark-hadoop-cloud): no class in two places,
 * so nothing depends on class-path order. Fails the build when a dependency slips in unrelocated.
 */
class RuntimeJarContentsIT {

    private static Set<String> classes(Path jar) throws IOException {
        Set<String> classes = new TreeSet<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            file.stream().map(e -> e.getName())
                    .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class"))
                    .forEach(classes::add);
        }
        return classes;
    }

    @Test
    void everyClassIsStorksOrRelocatedAndNoneClashesWithSparksJarsOrThePeers() throws IOException {
        Path runtime = SparkProcess.runtimeJar();
        Set<String> ours = classes(runtime);
        assertThat(ours).as("Stork's own classes").contains("io/stork/hadoop/StorkFileSystem.class",
                "io/stork/spark/StorkSparkExtensions.class", "io/stork/commit/StorkCommitProtocol.class",
                "io/stork/store/s3/S3ObjectStore.class", "io/stork/store/swift/SwiftObjectStore.class",
                "io/stork/layout/kdtree/KdTreeModel.class", "io/stork/spark/layout/StorkLayouts.class");
        assertThat(ours).as("every class is Stork's or relocated under io.stork.shaded")
                .allMatch(c -> c.startsWith("io/stork/"));

        List<Path> others = new ArrayList<>();
        try (Stream<Path> jars = Files.list(SparkProcess.sparkHome().resolve("jars"))) {
            jars.filter(p -> p.toString().endsWith(".jar")).forEach(others::add);
        }
        assertThat(others).as("Spark's jars").hasSizeGreaterThan(100);
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.contains("hadoop-aws-") || entry.contains("spark-hadoop-cloud_")
                    || entry.contains(File.separator + "awssdk" + File.separator)) {
                others.add(Path.of(entry));
            }
        }
        Map<String, String> clashes = new HashMap<>();
        for (Path jar : others) {
            for (String c : classes(jar)) {
                if (ours.contains(c)) {
                    clashes.putIfAbsent(c, jar.getFileName().toString());
                }
            }
        }
        assertThat(clashes).as("classes both in the runtime jar and in Spark's jars or the peers'").isEmpty();

        long mib = Files.size(runtime) >> 20;
        System.out.printf("runtime jar: %s, %d MiB, %d classes%n", runtime.getFileName(), mib, ours.size());
    }

    @Test
    void servicesNameOnlyStorksOrRelocatedClassesAndThePomPullsNothing() throws IOException {
        try (JarFile jar = new JarFile(SparkProcess.runtimeJar().toFile())) {
            // Stork's Python package rides in the jar (importable through --packages or --py-files).
            assertThat(jar.getEntry("stork/__init__.py")).as("stork/__init__.py").isNotNull();
            assertThat(jar.getEntry("stork/skipping.py")).as("stork/skipping.py").isNotNull();
            assertThat(jar.getEntry("stork/layout.py")).as("stork/layout.py").isNotNull();
            assertThat(jar.getEntry("stork/dataset.py")).as("stork/dataset.py").isNotNull();
            String fileSystems = new String(jar.getInputStream(jar.getEntry("META-INF/services/org.apache.hadoop.fs.FileSystem"))
                    .readAllBytes(), StandardCharsets.UTF_8);
            assertThat(fileSystems.lines().filter(l -> !l.isBlank() && !l.startsWith("#")))
                    .containsExactly("io.stork.hadoop.StorkFileSystem");
            // The backends are found only through their service entries: the shade plugin must merge them.
            String stores = new String(jar.getInputStream(jar.getEntry("META-INF/services/io.stork.store.StoreProvider"))
                    .readAllBytes(), StandardCharsets.UTF_8);
            assertThat(stores.lines().filter(l -> !l.isBlank() && !l.startsWith("#")))
                    .containsExactlyInAnyOrder("io.stork.store.memory.MemoryStoreProvider",
                            "io.stork.store.s3.S3StoreProvider", "io.stork.store.swift.SwiftStoreProvider");
            jar.stream().filter(e -> e.getName().startsWith("META-INF/services/") && !e.isDirectory()).forEach(e -> {
                String service = e.getName().substring("META-INF/services/".length());
                assertThat(service).as("a service of Stork's, a relocated one's, or Hadoop's FileSystem")
                        .matches("io\\.stork\\..*|org\\.apache\\.hadoop\\.fs\\.FileSystem");
            });
        }
        // What --packages resolves: the installed POM may name no dependency a user would receive.
        String version = System.getProperty("stork.version");
        Path pom = Path.of(System.getProperty("stork.m2.repository"), "io", "stork", "stork-spark-runtime", version,
                "stork-spark-runtime-" + version + ".pom");
        if (Files.exists(pom)) {
            String text = Files.readString(pom);
            int from = text.indexOf("<dependencies>");
            String deps = from < 0 ? "" : text.substring(from, text.indexOf("</dependencies>"));
            for (String dependency : deps.split("<dependency>")) {
                if (dependency.contains("<artifactId>")) {
                    assertThat(dependency).as("a dependency --packages would pull")
                            .containsAnyOf("<scope>provided</scope>", "<scope>test</scope>");
                }
            }
        }
    }
}
