package io.stork.spark.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkExecutorInfo;

/**
 * The hosts of a Spark application's executors now, from its status tracker, without the driver's own
 * entry (the driver runs no tasks; a host the scheduler cannot use would only delay tasks by the locality
 * wait). Empty in local mode, where the driver is the only executor.
 */
public final class ExecutorHosts implements Supplier<List<String>> {

    private final SparkContext context;

    public ExecutorHosts(SparkContext context) {
        this.context = context;
    }

    @Override
    public List<String> get() {
        if (context.isLocal()) {
            return List.of();
        }
        String driverHost = null;
        int driverPort = -1;
        SparkEnv env = SparkEnv.get();
        if (env != null && env.blockManager() != null && env.blockManager().blockManagerId() != null) {
            driverHost = env.blockManager().blockManagerId().host();
            driverPort = env.blockManager().blockManagerId().port();
        }
        TreeSet<String> hosts = new TreeSet<>();
        for (SparkExecutorInfo info : context.statusTracker().getExecutorInfos()) {
            if (!(info.host().equals(driverHost) && info.port() == driverPort)) {
                hosts.add(info.host());
            }
        }
        return new ArrayList<>(hosts);
    }
}
