package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.internal.io.HadoopMapReduceCommitProtocol;
import org.apache.spark.sql.internal.SQLConf;
import org.junit.jupiter.api.Test;

/**
 * Which sessions Stork routes by output scheme. S3A's protocol is not on this module's class path (SQLConf
 * refuses a class it cannot load), so its case is decided on the name here and run for real, with
 * spark-hadoop-cloud, by stork-runtime-tests' UserPathProcessIT.
 */
class CommitProtocolRoutingTest {

    private static final String ROUTING = SchemeRoutingCommitProtocol.class.getName();

    /** A protocol a user wrote and named on purpose. */
    public static final class UserChosenProtocol extends HadoopMapReduceCommitProtocol {
        public UserChosenProtocol(String jobId, String path, boolean dynamicPartitionOverwrite) {
            super(jobId, path, dynamicPartitionOverwrite);
        }
    }

    private static SQLConf routed(String configured) {
        SQLConf conf = new SQLConf();
        if (configured != null) {
            conf.setConfString(CommitProtocolRouting.COMMIT_PROTOCOL_KEY, configured);
        }
        CommitProtocolRouting.route(conf);
        return conf;
    }

    @Test
    void noProtocolOrSparksDefaultIsRoutedWithSparksDefaultForOtherSchemes() {
        for (String configured : new String[] {null, CommitProtocolRouting.SPARK_DEFAULT_PROTOCOL}) {
            SQLConf conf = routed(configured);
            assertThat(conf.getConfString(CommitProtocolRouting.COMMIT_PROTOCOL_KEY)).isEqualTo(ROUTING);
            assertThat(conf.getConfString(CommitProtocolRouting.OTHER_PROTOCOL_KEY))
                    .isEqualTo(CommitProtocolRouting.SPARK_DEFAULT_PROTOCOL);
            CommitProtocolRouting.route(conf);
            assertThat(conf.getConfString(CommitProtocolRouting.OTHER_PROTOCOL_KEY)).as("routing twice changes nothing")
                    .isEqualTo(CommitProtocolRouting.SPARK_DEFAULT_PROTOCOL);
        }
    }

    @Test
    void s3asProtocolSetBySparkItselfKeepsServingOtherSchemes() {
        assertThat(CommitProtocolRouting.otherSchemesProtocol(CommitProtocolRouting.S3A_PROTOCOL))
                .isEqualTo(CommitProtocolRouting.S3A_PROTOCOL);
        assertThat(CommitProtocolRouting.otherSchemesProtocol(ROUTING)).as("already routed").isNull();
    }

    @Test
    void aProtocolTheUserNamedIsLeftAlone() {
        String chosen = UserChosenProtocol.class.getName();
        SQLConf conf = routed(chosen);
        assertThat(conf.getConfString(CommitProtocolRouting.COMMIT_PROTOCOL_KEY)).isEqualTo(chosen);
        assertThat(conf.contains(CommitProtocolRouting.OTHER_PROTOCOL_KEY)).isFalse();
    }
}
