package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stork.store.AccessDeniedException;
import io.stork.store.AuthenticationException;
import io.stork.store.BucketNotFoundException;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreApi;
import io.stork.store.StoreException;
import io.stork.store.StoreUnreachableException;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.s3.S3StoreConfig;
import io.stork.store.swift.SwiftObjectStore;
import io.stork.store.swift.SwiftStoreConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input and failing stores give one-line errors that name the problem, the operation, the store
 * and the object, and never a secret (checked in messages, stack traces and everything logged).
 */
class ErrorReportingIT {

    private static final String WRONG_SECRET = "Wr0ng-S3cret-9f8e7d";

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureLogs() {
        originalErr = System.err;
        System.setErr(new PrintStream(new TeeStream(originalErr, captured), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void checkLogsHoldNoSecret() {
        System.setErr(originalErr);
        String logs = captured.toString(StandardCharsets.UTF_8);
        assertThat(logs).doesNotContain(WRONG_SECRET).doesNotContain(TestStores.local().s3SecretKey() + "\"")
                .doesNotContain("X-Auth-Key").doesNotContain("AUTH_tk");
    }

    private static void assertOneLineWithoutSecrets(Throwable error, String... mentions) {
        assertThat(error).isNotNull();
        assertThat(error.getMessage()).doesNotContain("\n").contains(mentions).doesNotContain(WRONG_SECRET)
                .doesNotContain("AUTH_tk");
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain(WRONG_SECRET).doesNotContain("AUTH_tk");
    }

    @Test
    void wrongCredentialsAreNamedAsSuch() throws IOException {
        try (ObjectStore s3 = new S3ObjectStore(TestStores.s3Config().withCredentials("test:tester", WRONG_SECRET))) {
            Throwable e = catchThrowable(() -> s3.head(ObjectKey.of("anything", "key")));
            assertThat(e).isInstanceOf(AuthenticationException.class);
            assertOneLineWithoutSecrets(e, "HEAD", "s3://anything/key", "credentials rejected");
            Throwable put = catchThrowable(() -> s3.put(ObjectKey.of("anything", "key"), PutBody.of(new byte[1]),
                    PutOptions.defaults()));
            assertThat(put).isInstanceOf(AuthenticationException.class);
            assertOneLineWithoutSecrets(put, "SignatureDoesNotMatch");
        }
        try (ObjectStore swift = new SwiftObjectStore(TestStores.swiftConfig().withCredentials("test:tester", WRONG_SECRET))) {
            Throwable e = catchThrowable(() -> swift.head(ObjectKey.of("anything", "key")));
            assertThat(e).isInstanceOf(AuthenticationException.class);
            assertOneLineWithoutSecrets(e, "AUTH", "credentials rejected for user test:tester", "401");
        }
    }

    @Test
    void aDownEndpointFailsFastAndSaysSo() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        URI down = URI.create("http://127.0.0.1:" + closedPort);
        S3StoreConfig s3Config = TestStores.s3Config();
        long start = System.nanoTime();
        try (ObjectStore s3 = new io.stork.store.RetryingObjectStore(new S3ObjectStore(new S3StoreConfig(down,
                "us-east-1", true, s3Config.accessKey(), WRONG_SECRET, s3Config.partSize(), 1, 4,
                Duration.ofSeconds(2), Duration.ofSeconds(5), false)), TestStores.FAST_RETRIES)) {
            Throwable e = catchThrowable(() -> s3.get(ObjectKey.of("bucket", "key"), io.stork.store.ByteRange.all()));
            assertThat(e).isInstanceOf(StoreUnreachableException.class);
            assertOneLineWithoutSecrets(e, "GET s3://bucket/key", down.toString(), "connection refused");
        }
        try (ObjectStore swift = new SwiftObjectStore(SwiftStoreConfig.of(down.resolve("/auth/v1.0"), "test:tester",
                WRONG_SECRET))) {
            Throwable e = catchThrowable(() -> swift.head(ObjectKey.of("bucket", "key")));
            assertThat(e).isInstanceOf(StoreUnreachableException.class);
            assertOneLineWithoutSecrets(e, "AUTH", "connection refused");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused connections are not retried")
                .isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aMissingBucketIsNamed() throws IOException {
        for (StoreApi api : StoreApi.wire()) {
            try (ObjectStore store = TestStores.open(api)) {
                String bucket = TestStores.uniqueBucket("absent");
                Throwable put = catchThrowable(() -> store.put(ObjectKey.of(bucket, "k"), PutBody.of(new byte[1]),
                        PutOptions.defaults()));
                assertThat(put).as(api.id()).isInstanceOf(BucketNotFoundException.class);
                assertOneLineWithoutSecrets(put, "PUT", bucket, "does not exist", "404");
                Throwable list = catchThrowable(() -> store.list(ListRequest.of(bucket, "")).hasNext());
                assertThat(list).as(api.id()).isInstanceOf(BucketNotFoundException.class);
                assertOneLineWithoutSecrets(list, "LIST", bucket);
            }
        }
    }

    @Test
    void anotherAccountsContainerIsAccessDenied() throws IOException {
        String bucket = TestStores.uniqueBucket("private");
        try (ObjectStore owner = TestStores.open(StoreApi.SWIFT)) {
            owner.createBucket(bucket);
            owner.put(ObjectKey.of(bucket, "secret-data"), PutBody.of(new byte[] {1}), PutOptions.defaults());
        }
        var local = TestStores.local();
        // The reader authenticates to its own account; the owner's container is reached by its storage URL.
        try (ObjectStore reader = new SwiftObjectStore(TestStores.swiftConfig()
                .withCredentials(local.swiftReaderUser(), local.swiftReaderKey())
                .withStorageUrlOverride(URI.create("http://127.0.0.1:" + local.port() + "/v1/AUTH_test")))) {
            Throwable e = catchThrowable(() -> reader.head(ObjectKey.of(bucket, "secret-data")));
            assertThat(e).isInstanceOf(AccessDeniedException.class);
            assertOneLineWithoutSecrets(e, "HEAD", bucket + "/secret-data", "access denied", "403");
        }
        try (ObjectStore reader = new S3ObjectStore(TestStores.s3Config()
                .withCredentials(local.swiftReaderUser(), local.swiftReaderKey()))) {
            Throwable e = catchThrowable(() -> reader.put(ObjectKey.of(bucket, "intruder"), PutBody.of(new byte[1]),
                    PutOptions.defaults()));
            assertThat(e).isInstanceOf(AccessDeniedException.class);
            assertOneLineWithoutSecrets(e, "PUT", bucket, "access denied", "403");
        }
    }

    @Test
    void aKeyTheStoreRejectsIsReportedWithTheStoresReason() throws IOException {
        for (StoreApi api : StoreApi.wire()) {
            try (ObjectStore store = TestStores.open(api)) {
                String bucket = TestStores.uniqueBucket("reject");
                store.createBucket(bucket);
                String tooLong = "k".repeat(1100);
                Throwable e = catchThrowable(() -> store.put(ObjectKey.of(bucket, tooLong), PutBody.of(new byte[1]),
                        PutOptions.defaults()));
                assertThat(e).as(api.id()).isInstanceOf(StoreException.class);
                assertThat(((StoreException) e).httpStatus()).isEqualTo(400);
                assertOneLineWithoutSecrets(e, "PUT", "rejected");
            }
        }
    }

    @Test
    void configurationsNeverPrintSecrets() {
        assertThat(TestStores.s3Config().withCredentials("id", WRONG_SECRET).toString()).doesNotContain(WRONG_SECRET);
        assertThat(TestStores.swiftConfig().withCredentials("u", WRONG_SECRET).toString()).doesNotContain(WRONG_SECRET);
    }

    /** Writes to the real stderr and to a capture buffer. */
    private static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream first;
        private final java.io.OutputStream second;

        TeeStream(java.io.OutputStream first, java.io.OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
