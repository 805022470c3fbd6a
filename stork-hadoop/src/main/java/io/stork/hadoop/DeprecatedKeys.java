package io.stork.hadoop;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One warning per JVM for each deprecated key a configuration still uses: a log line, not a flood. */
final class DeprecatedKeys {

    private static final Logger LOG = LoggerFactory.getLogger(DeprecatedKeys.class);
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private DeprecatedKeys() {
    }

    static void warnOnce(String deprecated, String replacement) {
        if (WARNED.add(deprecated)) {
            LOG.warn("{} is deprecated: use {} (Spark's and Hadoop's redaction hide it; the old name is shown in "
                    + "clear in Spark's UI and event log)", deprecated, replacement);
        }
    }
}
