package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stork.localstore.LocalKeystone;
import io.stork.localstore.StoreCallCounts;
import io.stork.store.CallType;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreApi;
import java.io.IOException;
import java.net.URI;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code stork://} over Swift with Keystone v3, set up with the documented keys only, against the real
 * Keystone and its Swift proxy (scripts/local-store.sh); the same small job through tempauth beside it, to
 * measure what Keystone adds per job. Skipped (with the reason) only when Keystone cannot be installed.
 */
class KeystoneFileSystemIT {

    private static LocalKeystone keystone;

    @BeforeAll
    static void keystone() {
        keystone = LocalKeystone.shared();
        assumeTrue(keystone.available(), keystone.unavailableReason());
    }

    private static Configuration conf(String bucket) {
        Configuration conf = new Configuration(false);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        String b = "fs.stork.bucket." + bucket + ".";
        conf.set(b + "api", "swift");
        conf.set(b + "swift.auth.version", "3");
        conf.set(b + "swift.auth.url", keystone.url().toString());
        conf.set(b + "swift.region", keystone.region());
        return conf;
    }

    /** A job's worth of calls: write three files, list, read one, rename one, delete the directory. */
    private static void job(FileSystem fs) throws IOException {
        ((StorkFileSystem) fs).store().createBucket(fs.getUri().getHost());
        for (int i = 0; i < 3; i++) {
            try (FSDataOutputStream out = fs.create(new Path("/job/part-" + i + ".csv"), true)) {
                out.write(("row " + i + "\n").getBytes());
            }
        }
        assertThat(fs.listStatus(new Path("/job"))).hasSize(3);
        try (FSDataInputStream in = fs.open(new Path("/job/part-1.csv"))) {
            assertThat(new String(in.readAllBytes())).isEqualTo("row 1\n");
        }
        assertThat(fs.rename(new Path("/job/part-2.csv"), new Path("/job/renamed.csv"))).isTrue();
        assertThat(fs.delete(new Path("/job"), true)).isTrue();
    }

    private static StatisticsSnapshot statistics(FileSystem fs) {
        return ((StorkFileSystem) fs).store().statistics().snapshot();
    }

    @Test
    void aJobWithPasswordAuthTakesOneTokenLikeTempauth() throws IOException {
        String bucket = "it-ks-fs-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = conf(bucket);
        String b = "fs.stork.bucket." + bucket + ".";
        conf.set(b + "swift.user", keystone.user());
        conf.set(b + "swift.password", keystone.password());
        conf.set(b + "swift.project", keystone.project());

        long tokensBefore = keystone.tokenRequests();
        var window = keystone.accessLog().openWindow();
        StatisticsSnapshot withKeystone;
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
            job(fs);
            withKeystone = statistics(fs);
        }
        StoreCallCounts atProxy = window.counts();
        assertThat(withKeystone.calls(CallType.AUTH)).isEqualTo(1);
        assertThat(keystone.tokenRequests() - tokensBefore).as("token requests at Keystone").isEqualTo(1);
        assertThat(atProxy.total()).as("Swift calls at the Keystone proxy")
                .isEqualTo(withKeystone.totalCalls() - withKeystone.calls(CallType.AUTH));

        // The same job through tempauth: the same Swift calls, and one AUTH too.
        String tempauthBucket = "it-ta-fs-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration tempauth = new Configuration(false);
        tempauth.setBoolean("fs.stork.impl.disable.cache", true);
        StorkContract.configure(tempauth, tempauthBucket, StoreApi.SWIFT);
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + tempauthBucket + "/"), tempauth)) {
            job(fs);
            StatisticsSnapshot withTempauth = statistics(fs);
            assertThat(withTempauth.calls(CallType.AUTH)).isEqualTo(1);
            assertThat(withTempauth.totalCalls()).isEqualTo(withKeystone.totalCalls());
            System.out.printf("[keystone] one job: Keystone %s | tempauth %s; token requests at Keystone: 1%n",
                    withKeystone.callsByType(), withTempauth.callsByType());
        }
    }

    @Test
    void anApplicationCredentialAndAWrongSecretThroughTheFileSystem() throws IOException {
        String bucket = "it-ks-ac-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = conf(bucket);
        String b = "fs.stork.bucket." + bucket + ".";
        conf.set(b + "swift.application.credential.id", keystone.applicationCredentialId());
        conf.set(b + "swift.application.credential.secret", keystone.applicationCredentialSecret());
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
            job(fs);
        }
        conf.set(b + "swift.application.credential.secret", "not-the-secret");
        assertThatThrownBy(() -> {
            try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
                fs.getFileStatus(new Path("/anything.csv"));
            }
        }).isInstanceOf(io.stork.store.AuthenticationException.class)
                .hasMessageContaining("Keystone rejected application credential " + keystone.applicationCredentialId())
                .hasMessageNotContaining("not-the-secret")
                .hasMessageNotContaining(keystone.applicationCredentialSecret());
    }
}
