package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stork.store.AuthenticationException;
import io.stork.store.BucketNotFoundException;
import io.stork.store.StoreApi;
import io.stork.store.StoreUnreachableException;
import io.stork.localstore.LocalStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The connector driven by Hadoop's own shell, and what users see when the input is wrong. */
class FileSystemUsabilityIT {

    private static final String WRONG_SECRET = "Wr0ng-S3cret-4c3b2a";

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void hadoopFsShellPutsListsCatsAndRemoves(StoreApi api) throws Exception {
        String bucket = "it-fsshell-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = new Configuration();
        StorkContract.configure(conf, bucket, api);
        try (FileSystem fs = FileSystemCallCountIT.open(api, bucket)) {
            java.nio.file.Path local = Files.createTempFile("stork-shell", ".txt");
            Files.writeString(local, "hello through FsShell\n");
            String dir = "stork://" + bucket + "/shell/";
            assertThat(shell(conf, "-mkdir", "-p", dir)).isZero();
            assertThat(shell(conf, "-put", local.toString(), dir + "hello.txt")).isZero();
            ByteArrayOutputStream listing = new ByteArrayOutputStream();
            assertThat(shell(conf, listing, "-ls", dir)).isZero();
            assertThat(listing.toString(StandardCharsets.UTF_8)).contains(dir + "hello.txt");
            ByteArrayOutputStream cat = new ByteArrayOutputStream();
            assertThat(shell(conf, cat, "-cat", dir + "hello.txt")).isZero();
            assertThat(cat.toString(StandardCharsets.UTF_8)).isEqualTo("hello through FsShell\n");
            assertThat(shell(conf, "-rm", "-r", dir)).isZero();
            assertThat(fs.exists(new Path("/shell"))).isFalse();
            Files.delete(local);
        }
    }

    private static int shell(Configuration conf, String... args) throws Exception {
        return shell(conf, new ByteArrayOutputStream(), args);
    }

    private static int shell(Configuration conf, ByteArrayOutputStream out, String... args) throws Exception {
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            FsShell shell = new FsShell(conf);
            int code = shell.run(args);
            shell.close();
            return code;
        } finally {
            System.setOut(original);
        }
    }

    @Test
    void badInputGivesOneLineErrorsThatNameTheProblemAndNoSecret() throws IOException {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
        try {
            Configuration conf = new Configuration(false);
            conf.setBoolean("fs.stork.impl.disable.cache", true);

            Throwable noBucket = catchThrowable(() -> FileSystem.get(URI.create("stork:///just/a/path"), conf));
            assertOneLine(noBucket, "stork://<bucket>/<path>");

            Throwable noEndpoint = catchThrowable(() -> FileSystem.get(URI.create("stork://unconfigured/"), conf));
            assertOneLine(noEndpoint, "missing configuration fs.stork.endpoint");

            Configuration badApi = new Configuration(conf);
            badApi.set("fs.stork.api", "ftp");
            assertOneLine(catchThrowable(() -> FileSystem.get(URI.create("stork://b1/"), badApi)),
                    "must be one of memory, s3, swift (the store APIs on the class path), not 'ftp'");

            Configuration badCache = new Configuration(conf);
            StorkContract.configure(badCache, "b2", StoreApi.S3);
            badCache.set("fs.stork.cache.enabled", "true");
            badCache.set("fs.stork.cache.eviction", "random");
            assertOneLine(catchThrowable(() -> FileSystem.get(URI.create("stork://b2/"), badCache)),
                    "fs.stork.cache", "unknown eviction policy 'random'");

            Configuration badSegments = new Configuration(conf);
            StorkContract.configure(badSegments, "b3", StoreApi.SWIFT);
            badSegments.set("fs.stork.swift.segment.size", "1k");
            assertOneLine(catchThrowable(() -> FileSystem.get(URI.create("stork://b3/"), badSegments)),
                    "fs.stork.swift.segment.size", "1 MiB to 5 GiB");

            String missing = "it-missing-" + UUID.randomUUID().toString().substring(0, 6);
            Configuration good = new Configuration(conf);
            StorkContract.configure(good, missing, StoreApi.S3);
            try (FileSystem fs = FileSystem.get(URI.create("stork://" + missing + "/"), good)) {
                Throwable e = catchThrowable(() -> fs.create(new Path("/x")).close());
                assertThat(e).isInstanceOf(BucketNotFoundException.class);
                assertOneLine(e, missing, "does not exist");
            }

            String bucket = "it-badcreds-" + UUID.randomUUID().toString().substring(0, 6);
            for (StoreApi api : StoreApi.wire()) {
                Configuration wrong = new Configuration(conf);
                StorkContract.configure(wrong, bucket, api);
                wrong.set("fs.stork.bucket." + bucket + ".access.secret", WRONG_SECRET);
                wrong.set("fs.stork.bucket." + bucket + ".swift.password", WRONG_SECRET);
                try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), wrong)) {
                    Throwable e = catchThrowable(() -> fs.getFileStatus(new Path("/x")));
                    assertThat(e).as(api.id()).isInstanceOf(AuthenticationException.class);
                    assertOneLine(e, "credentials rejected");
                }
            }

            int closedPort;
            try (ServerSocket socket = new ServerSocket(0)) {
                closedPort = socket.getLocalPort();
            }
            Configuration down = new Configuration(conf);
            StorkContract.configure(down, bucket, StoreApi.S3);
            down.set("fs.stork.bucket." + bucket + ".endpoint", "http://127.0.0.1:" + closedPort);
            try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), down)) {
                Throwable e = catchThrowable(() -> fs.open(new Path("/x")));
                assertThat(e).isInstanceOf(StoreUnreachableException.class);
                assertOneLine(e, "connection refused", "127.0.0.1:" + closedPort);
            }
        } finally {
            System.setErr(originalErr);
        }
        assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(WRONG_SECRET).doesNotContain("AUTH_tk");
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void anObjectReplacedWhileItIsReadFailsTheReadClearly(StoreApi api) throws Exception {
        String bucket = "it-etag-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = FileSystemCallCountIT.open(api, bucket)) {
            Path file = new Path("/changing.bin");
            byte[] first = new byte[4 * 1024 * 1024];
            java.util.Arrays.fill(first, (byte) 1);
            try (var out = fs.create(file, true)) {
                out.write(first);
            }
            try (var in = fs.open(file)) {
                in.readFully(new byte[1000]);
                byte[] second = new byte[4 * 1024 * 1024];
                java.util.Arrays.fill(second, (byte) 2);
                try (FileSystem other = FileSystemCallCountIT.open(api, bucket); var out = other.create(file, true)) {
                    out.write(second);
                }
                in.seek(3 * 1024 * 1024); // beyond the read-ahead: a new GET, which sees a new ETag
                Throwable e = catchThrowable(() -> in.read());
                assertThat(e).isInstanceOf(IOException.class);
                assertOneLine(e, "changed while it was read");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void anAbortedOrUnclosedFileIsNeverVisible(StoreApi api) throws Exception {
        String bucket = "it-abort-" + api.id() + "-" + UUID.randomUUID().toString().substring(0, 6);
        try (FileSystem fs = FileSystemCallCountIT.open(api, bucket)) {
            Path file = new Path("/aborted.bin");
            var out = fs.create(file, true);
            assertThat(out.hasCapability("fs.capability.outputstream.abortable")).isTrue();
            assertThat(out.hasCapability("hflush")).isFalse();
            assertThat(out.hasCapability("hsync")).isFalse();
            out.write(new byte[20 * 1024 * 1024]);
            assertThat(fs.exists(file)).as("visible before close").isFalse();
            out.abort();
            assertThat(fs.exists(file)).as("visible after abort").isFalse();
            var listed = fs.listStatusIterator(new Path("/"));
            assertThat(listed.hasNext()).isFalse();
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void secretsUnderTheirOldNamesStillWorkAndTheNewNamesAreRedactedByDefault(StoreApi api) throws Exception {
        String bucket = "it-oldkeys-" + UUID.randomUUID().toString().substring(0, 6);
        Configuration conf = new Configuration(false);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        StorkContract.configure(conf, bucket, api);
        String prefix = "fs.stork.bucket." + bucket + ".";
        conf.set(prefix + "secret.key", conf.get(prefix + "access.secret"));
        conf.set(prefix + "swift.key", conf.get(prefix + "swift.password"));
        conf.unset(prefix + "access.secret");
        conf.unset(prefix + "swift.password");
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
            ((StorkFileSystem) fs).store().createBucket(bucket);
            try (var out = fs.create(new Path("/old-names.txt"), true)) {
                out.write(7);
            }
            assertThat(fs.getFileStatus(new Path("/old-names.txt")).getLen()).isEqualTo(1);
        }
        // Hadoop's own redaction (hadoop.security.sensitive-config-keys) hides the new names, not the old.
        var redactor = new org.apache.hadoop.conf.ConfigRedactor(new Configuration());
        for (String key : new String[] {prefix + "access.secret", prefix + "swift.password", "fs.stork.access.secret",
                "fs.stork.swift.password", prefix + "session.secret", "fs.stork.session.secret",
                "fs.stork.ssl.truststore.password", prefix + "ssl.truststore.password"}) {
            assertThat(redactor.redact(key, "s3cr3t")).as(key).isNotEqualTo("s3cr3t");
        }
        // Why the S3 session token is session.secret and not S3A's session.token (which the S3 provider refuses).
        assertThat(redactor.redact("fs.stork.session.token", "s3cr3t")).as("why not session.token").isEqualTo("s3cr3t");
        assertThat(redactor.redact(prefix + "swift.key", "s3cr3t")).as("why the old name is deprecated")
                .isEqualTo("s3cr3t");
    }

    @Test
    void aKeyTheStoreRejectsAndSecretsFromACredentialProvider() throws Exception {
        String bucket = "it-keys-" + UUID.randomUUID().toString().substring(0, 6);
        java.nio.file.Path jceks = Files.createTempDirectory("stork-creds").resolve("creds.jceks");
        Configuration conf = new Configuration(false);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        StorkContract.configure(conf, bucket, StoreApi.S3);
        // Move the secret out of the configuration into a Hadoop credential provider.
        String provider = "jceks://file" + jceks;
        conf.set("hadoop.security.credential.provider.path", provider);
        var credentials = org.apache.hadoop.security.alias.CredentialProviderFactory.getProviders(conf).get(0);
        credentials.createCredentialEntry("fs.stork.bucket." + bucket + ".access.secret",
                LocalStore.shared().s3SecretKey().toCharArray());
        credentials.flush();
        conf.unset("fs.stork.bucket." + bucket + ".access.secret");
        try (FileSystem fs = FileSystem.get(URI.create("stork://" + bucket + "/"), conf)) {
            ((StorkFileSystem) fs).store().createBucket(bucket);
            try (var out = fs.create(new Path("/via-provider.txt"), true)) {
                out.write(1);
            }
            assertThat(fs.getFileStatus(new Path("/via-provider.txt")).getLen()).isEqualTo(1);
            Throwable e = catchThrowable(() -> {
                try (var out = fs.create(new Path("/" + "k".repeat(1100)), true)) {
                    out.write(1);
                }
            });
            assertThat(e).isInstanceOf(io.stork.store.StoreException.class);
            assertOneLine(e, "PUT", "rejected", "400");
        }
    }

    private static void assertOneLine(Throwable e, String... mentions) {
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).doesNotContain("\n").contains(mentions).doesNotContain(WRONG_SECRET);
        java.io.StringWriter trace = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain(WRONG_SECRET);
    }
}
