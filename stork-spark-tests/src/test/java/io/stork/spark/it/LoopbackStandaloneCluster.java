package io.stork.spark.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.rpc.RpcEnv;

/**
 * A Spark standalone master and workers on loopback, each worker on an address of its own (127.0.0.2,
 * 127.0.0.3, …), with executors in JVMs of their own. Why not local-cluster: its workers all share one
 * host name, and Spark never starts a speculative copy of a task on a host where an attempt of it runs,
 * so speculation could not fire there.
 */
final class LoopbackStandaloneCluster implements AutoCloseable {

    private final RpcEnv master;
    private final List<RpcEnv> workers = new ArrayList<>();
    private final String masterUrl;

    LoopbackStandaloneCluster(int workerCount, int coresPerWorker, int memoryMbPerWorker) throws IOException {
        executorClassPath(); // fails first, in one line, without SPARK_HOME
        SparkConf conf = new SparkConf();
        master = (RpcEnv) org.apache.spark.deploy.master.Master$.MODULE$
                .startRpcEnvAndEndpoint("127.0.0.1", 0, 0, conf)._1();
        masterUrl = "spark://127.0.0.1:" + master.address().port();
        File workDir = Files.createTempDirectory("stork-spark-workers").toFile();
        for (int i = 0; i < workerCount; i++) {
            String host = "127.0.0." + (i + 2);
            workers.add(org.apache.spark.deploy.worker.Worker$.MODULE$.startRpcEnvAndEndpoint(host, 0, 0,
                    coresPerWorker, memoryMbPerWorker, new String[] {masterUrl},
                    new File(workDir, host).getAbsolutePath(), scala.Option.apply(i), conf, scala.Option.empty()));
        }
    }

    /**
     * The class path executors need beside Spark's own jars: the test's, without Spark and Scala (the
     * executors have SPARK_HOME's). Fails with one line when SPARK_HOME names no Spark distribution.
     */
    static String executorClassPath() {
        io.stork.localstore.TestLane.requireIntegration("a Spark standalone cluster");
        String sparkHome = System.getenv("SPARK_HOME");
        if (sparkHome == null || !new File(sparkHome, "jars").isDirectory()) {
            throw new IllegalStateException("SPARK_HOME must name a Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION()
                    + " distribution for a standalone cluster: run through scripts/test.sh, or export "
                    + "SPARK_HOME=$(bash scripts/spark-home.sh)");
        }
        java.util.Set<String> sparkJars = new java.util.HashSet<>();
        File[] jars = new File(sparkHome, "jars").listFiles();
        if (jars != null) {
            for (File jar : jars) {
                sparkJars.add(jar.getName());
            }
        }
        return java.util.Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !sparkJars.contains(new File(entry).getName()))
                .filter(entry -> !entry.contains("/org/apache/spark/") && !entry.contains("/org/scala-lang/"))
                .collect(java.util.stream.Collectors.joining(File.pathSeparator));
    }

    /**
     * {@code builder} pointed at this cluster: the driver on loopback, executors of {@code executorMemory}
     * with the test's class path beside Spark's own jars.
     */
    org.apache.spark.sql.SparkSession.Builder session(org.apache.spark.sql.SparkSession.Builder builder,
                                                     String executorMemory) {
        return builder.master(masterUrl)
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.executor.memory", executorMemory)
                .config("spark.executor.extraClassPath", executorClassPath());
    }

    String masterUrl() {
        return masterUrl;
    }

    @Override
    public void close() {
        for (RpcEnv worker : workers) {
            worker.shutdown();
        }
        master.shutdown();
    }
}
