package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.LocalTls;
import io.stork.localstore.StoreCallCounts;
import io.stork.store.CallType;
import io.stork.store.StoreApi;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code stork://} over the local store's https endpoint (scripts/local-store.sh start --tls), configured as
 * an operator would: the endpoint and trust store per bucket, the trust store's password in a Hadoop
 * credential provider. Also the signing region per bucket, which the store checks.
 */
class FileSystemTlsIT {

    private static LocalTls tls() {
        return LocalStore.shared().tls();
    }

    /** A bucket of the local store reached over TLS through {@code api}, trusting the store's CA. */
    private static Configuration overTls(String bucket, StoreApi api) throws IOException {
        Configuration conf = new Configuration(false);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        StorkContract.configure(conf, bucket, api);
        String prefix = "fs.stork.bucket." + bucket + ".";
        conf.set(prefix + "endpoint", tls().s3Endpoint().toString());
        conf.set(prefix + "swift.auth.url", tls().swiftAuthUrl().toString());
        conf.set(prefix + "swift.user", tls().swiftUser());
        conf.set(prefix + "swift.password", tls().swiftKey());
        conf.set(prefix + "ssl.truststore.path", tls().trustStore().toString());
        // The password where an operator keeps it: a credential provider, not the configuration.
        java.nio.file.Path jceks = Files.createTempDirectory("stork-tls-creds").resolve("creds.jceks");
        conf.set("hadoop.security.credential.provider.path", "jceks://file" + jceks);
        var credentials = CredentialProviderFactory.getProviders(conf).get(0);
        credentials.createCredentialEntry("fs.stork.ssl.truststore.password", tls().trustStorePassword().toCharArray());
        credentials.flush();
        return conf;
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void writeReadListDeleteOverTls(StoreApi api) throws Exception {
        String bucket = "it-fstls-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = overTls(bucket, api);
        AccessLog.Window window = LocalStore.shared().accessLog().openWindow();
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
            ((StorkFileSystem) fs).store().createBucket(bucket);
            Path file = new Path("/dir/tls.txt");
            try (var out = fs.create(file, true)) {
                out.write("over TLS".getBytes(StandardCharsets.UTF_8));
            }
            try (var in = fs.open(file)) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("over TLS");
            }
            FileStatus[] listed = fs.listStatus(new Path("/dir"));
            assertThat(listed).extracting(s -> s.getPath().getName()).containsExactly("tls.txt");
            assertThat(fs.delete(file, false)).isTrue();
            assertThat(fs.exists(file)).isFalse();
        }
        StoreCallCounts counts = window.counts();
        assertThat(counts.calls(CallType.PUT)).isGreaterThanOrEqualTo(1);
        assertThat(counts.calls(CallType.GET)).isGreaterThanOrEqualTo(1);
        assertThat(counts.calls(CallType.DELETE)).isGreaterThanOrEqualTo(1);
        int port = tls().s3Endpoint().getPort();
        // Every call of this file system (the window may hold other tests' calls: pick this bucket's).
        assertThat(counts.entries().stream().filter(e -> e.path().contains(bucket) || e.callType() == CallType.AUTH
                        && e.headers().contains("localhost:" + port)))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.headers()).as(e.method() + " " + e.path())
                        .contains("Host: localhost:" + port));
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void aTrustStoreOfAnotherCaIsOneLineThroughTheFileSystem(StoreApi api) throws Exception {
        String bucket = "it-fstls-ca-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = overTls(bucket, api);
        conf.set("fs.stork.bucket." + bucket + ".ssl.truststore.path", tls().otherTrustStore().toString());
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
            Throwable e = catchThrowable(() -> fs.getFileStatus(new Path("/any")));
            assertThat(e).isInstanceOf(io.stork.store.StoreUnreachableException.class);
            assertThat(e.getMessage()).doesNotContain("\n").doesNotContain(tls().trustStorePassword())
                    .contains("TLS handshake with https://localhost:" + tls().s3Endpoint().getPort() + " failed: "
                            + "the server's certificate is not trusted (set fs.stork.ssl.truststore.path");
        }
    }

    @Test
    void aMissingTrustStoreFailsWhenTheFileSystemOpensNamingTheKey() throws Exception {
        String bucket = "it-fstls-missing-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = overTls(bucket, StoreApi.S3);
        conf.set("fs.stork.bucket." + bucket + ".ssl.truststore.path", "/nonexistent/truststore.p12");
        Throwable e = catchThrowable(() -> FileSystem.get(URI.create("stork://" + bucket + "/"), conf).close());
        assertThat(e).isInstanceOf(IOException.class);
        assertThat(e.getMessage()).doesNotContain("\n").startsWith("stork://" + bucket)
                .contains("/nonexistent/truststore.p12").contains("fs.stork.ssl.truststore.path");
    }

    @Test
    void theRegionSignedForIsTheBucketsOwn() throws Exception {
        String right = "it-region-ok-" + UUID.randomUUID().toString().substring(0, 6);
        String wrong = "it-region-no-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = new Configuration(false);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        StorkContract.configure(conf, right, StoreApi.S3);
        StorkContract.configure(conf, wrong, StoreApi.S3);
        // A global region the store rejects, and the store's own for one bucket only.
        conf.set("fs.stork.region", "eu-west-1");
        conf.set("fs.stork.bucket." + right + ".region", LocalStore.shared().s3Region());
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + right + "/"), conf)) {
            ((StorkFileSystem) fs).store().createBucket(right);
            try (var out = fs.create(new Path("/signed.txt"), true)) {
                out.write(1);
            }
            assertThat(fs.getFileStatus(new Path("/signed.txt")).getLen()).isEqualTo(1);
            fs.delete(new Path("/signed.txt"), false);
            ((StorkFileSystem) fs).store().deleteBucket(right);
        }
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + wrong + "/"), conf)) {
            Throwable e = catchThrowable(() -> ((StorkFileSystem) fs).store().createBucket(wrong));
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).doesNotContain("\n")
                    .contains("the region 'eu-west-1' is wrong; expecting 'us-east-1'")
                    .contains("fs.stork.bucket." + wrong + ".region");
        }
    }
}
