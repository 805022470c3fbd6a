package io.stork.kafka;

import io.stork.localstore.TestLane;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real Kafka node for the integration tests: one KRaft process that is broker and controller, on
 * loopback, its log directory in a temporary directory. It runs in a child JVM from the kafka_2.13 jars of
 * the test class path, the way {@code kafka-storage.sh format} and {@code kafka-server-start.sh} run it, so
 * that the broker's own dependencies never meet the producer's in one class loader.
 */
final class KRaftBroker implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Thread reaper;
    private final String bootstrap;
    private final Admin admin;

    private KRaftBroker(Process process, Thread reaper, String bootstrap, Admin admin) {
        this.process = process;
        this.reaper = reaper;
        this.bootstrap = bootstrap;
        this.admin = admin;
    }

    static KRaftBroker start(Path dir) throws IOException, InterruptedException {
        TestLane.requireIntegration("a Kafka broker");
        int port = freePort();
        int controllerPort = freePort();
        String bootstrap = "127.0.0.1:" + port;
        Path properties = dir.resolve("server.properties");
        Files.writeString(properties, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://" + bootstrap + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://" + bootstrap,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false") + "\n");
        Process format = java(dir, "format.log", "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                "-c", properties.toString());
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting the broker's storage failed: " + tail(dir.resolve("format.log")));
        }
        Process broker = java(dir, "broker.log", "kafka.Kafka", properties.toString());
        // A child outlives a JVM that dies: the hook stops it if @AfterAll never runs.
        Thread reaper = new Thread(broker::destroyForcibly, "kafka-broker-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        Admin admin = null;
        try {
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000"));
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (true) {
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return new KRaftBroker(broker, reaper, bootstrap, admin);
                } catch (ExecutionException | TimeoutException e) {
                    if (!broker.isAlive() || System.nanoTime() > deadline) {
                        throw new IllegalStateException("the Kafka broker did not start in "
                                + START_TIMEOUT.toSeconds() + " s: " + tail(dir.resolve("broker.log")));
                    }
                    Thread.sleep(200);
                }
            }
        } catch (RuntimeException | InterruptedException e) {
            if (admin != null) {
                admin.close(Duration.ZERO);
            }
            stop(broker);
            Runtime.getRuntime().removeShutdownHook(reaper);
            throw e;
        }
    }

    String bootstrap() {
        return bootstrap;
    }

    /**
     * Creates a topic and returns once every partition answers at its leader: a produce request that arrives
     * before the broker has loaded a new partition fails with NOT_LEADER_OR_FOLLOWER, and an idempotent
     * producer's retries can then spin on OUT_OF_ORDER_SEQUENCE_NUMBER until its delivery timeout (seen here
     * once in a few runs).
     */
    void createTopic(String name, int partitions) throws ExecutionException, InterruptedException {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
        Map<TopicPartition, OffsetSpec> all = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            all.put(new TopicPartition(name, p), OffsetSpec.latest());
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                admin.listOffsets(all).all().get();
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        try {
            stop(process);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().removeShutdownHook(reaper);
    }

    private static void stop(Process broker) throws InterruptedException {
        broker.destroy(); // SIGTERM: the broker's own controlled shutdown
        if (!broker.waitFor(30, TimeUnit.SECONDS)) {
            broker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Process java(Path dir, String log, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve(log).toFile()).start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The last lines of a child's log, on one line, for a failure message. */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
