package io.stork.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/**
 * The protocol and committer a write actually ran, read back rather than assumed: the commit protocol the
 * session resolves for the path's scheme, and the {@code _SUCCESS} the job left (a Stork manifest names its
 * writer; S3A's committers write a JSON naming theirs; Hadoop's classic committer an empty file).
 */
final class RanCommitter {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RanCommitter() {
    }

    static String describe(SparkSession spark, String path) throws IOException {
        return protocol(spark, path) + " / " + committer(spark, path);
    }

    private static String protocol(SparkSession spark, String path) {
        String configured = spark.conf().get("spark.sql.sources.commitProtocolClass",
                "org.apache.spark.sql.execution.datasources.SQLHadoopMapReduceCommitProtocol");
        if (configured.equals("io.stork.spark.SchemeRoutingCommitProtocol")) {
            configured = path.startsWith("stork:") ? "io.stork.commit.StorkCommitProtocol"
                    : spark.conf().get("spark.stork.sql.otherCommitProtocolClass");
        }
        return configured.substring(configured.lastIndexOf('.') + 1);
    }

    private static String committer(SparkSession spark, String path) throws IOException {
        Path success = new Path(path, "_SUCCESS");
        FileSystem fs = success.getFileSystem(spark.sparkContext().hadoopConfiguration());
        byte[] bytes;
        try (InputStream in = fs.open(success)) {
            bytes = in.readAllBytes();
        }
        if (bytes.length == 0) {
            return "FileOutputCommitter";
        }
        JsonNode json = JSON.readTree(bytes);
        if (json.has("committer")) {
            return "S3A " + json.get("committer").asText();
        }
        if (json.has("generation")) {
            return "Stork manifest, generation " + json.get("generation").asText();
        }
        return "unknown _SUCCESS (" + bytes.length + " bytes)";
    }
}
