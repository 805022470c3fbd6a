package io.stork.spark;

import java.util.Set;
import org.apache.spark.sql.internal.SQLConf;

/**
 * Which commit protocol a session runs, once Stork is enabled in it. Spark reads one protocol class per
 * session ({@code spark.sql.sources.commitProtocolClass}); Stork makes it {@link SchemeRoutingCommitProtocol}
 * and keeps the one it replaces for other schemes. Only protocols nobody chose on purpose are replaced:
 * none set, Spark's default, or S3A's {@code PathOutputCommitProtocol}, which Spark 4 sets by itself when
 * spark-hadoop-cloud is on the class path. A protocol the user names is left alone.
 */
final class CommitProtocolRouting {

    static final String COMMIT_PROTOCOL_KEY = "spark.sql.sources.commitProtocolClass";
    /** The protocol for output that is not {@code stork://}; set by Stork when it takes the setting over. */
    static final String OTHER_PROTOCOL_KEY = "spark.stork.sql.otherCommitProtocolClass";
    static final String SPARK_DEFAULT_PROTOCOL =
            "org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol";
    static final String S3A_PROTOCOL = "org.apache.spark.internal.io.cloud.PathOutputCommitProtocol";
    private static final Set<String> REPLACEABLE = Set.of(SPARK_DEFAULT_PROTOCOL, S3A_PROTOCOL);

    private CommitProtocolRouting() {
    }

    /** Routes the session's writes by output scheme, unless its protocol was chosen on purpose. */
    static void route(SQLConf conf) {
        String current = conf.contains(COMMIT_PROTOCOL_KEY) ? conf.getConfString(COMMIT_PROTOCOL_KEY) : null;
        String other = otherSchemesProtocol(current);
        if (other != null) {
            conf.setConfString(OTHER_PROTOCOL_KEY, other);
            conf.setConfString(COMMIT_PROTOCOL_KEY, SchemeRoutingCommitProtocol.class.getName());
        }
    }

    /**
     * The protocol other schemes keep when Stork takes over a session whose protocol is {@code current}
     * (null: none set), or null when the session is to be left as it is (already routed, or chosen on purpose).
     */
    static String otherSchemesProtocol(String current) {
        if (SchemeRoutingCommitProtocol.class.getName().equals(current)) {
            return null;
        }
        if (current == null) {
            return SPARK_DEFAULT_PROTOCOL;
        }
        return REPLACEABLE.contains(current) ? current : null;
    }
}
