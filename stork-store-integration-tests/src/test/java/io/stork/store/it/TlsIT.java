package io.stork.store.it;

import static io.stork.store.it.CountedRoundTrip.counted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalTls;
import io.stork.localstore.StoreCallCounts;
import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.StoreApi;
import io.stork.store.StoreUnreachableException;
import io.stork.store.TlsTrust;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.s3.S3StoreConfig;
import io.stork.store.swift.SwiftObjectStore;
import io.stork.store.swift.SwiftStoreConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both APIs over the local store's https endpoint (scripts/local-store.sh start --tls: stunnel with a
 * certificate of the script's own CA, in front of the same proxy, so its access log counts the calls): a
 * configured trust store works; a trust store of another CA, the JDK's default trust, and a host the
 * certificate does not name each fail on the first call with one line naming the endpoint and the setting.
 */
class TlsIT {

    private static LocalTls tls() {
        return TestStores.local().tls();
    }

    private static TlsTrust trustingTheStore() {
        return TlsTrust.of(tls().trustStore(), tls().trustStorePassword());
    }

    /** A client of the https endpoint ({@code endpoint}: the S3 endpoint or the Swift auth URL) with this trust. */
    private static ObjectStore open(StoreApi api, URI endpoint, TlsTrust trust) {
        if (api == StoreApi.S3) {
            var local = TestStores.local();
            return new S3ObjectStore(S3StoreConfig.of(endpoint, local.s3Region(), local.s3AccessKey(),
                    local.s3SecretKey()).withTls(trust));
        }
        return new SwiftObjectStore(SwiftStoreConfig.of(endpoint, tls().swiftUser(), tls().swiftKey()).withTls(trust));
    }

    private static URI endpoint(StoreApi api) {
        return api == StoreApi.S3 ? tls().s3Endpoint() : tls().swiftAuthUrl();
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void writeReadListDeleteOverTlsCountedAtTheStore(StoreApi api) throws IOException {
        int tlsPort = endpoint(api).getPort();
        try (ObjectStore store = open(api, endpoint(api), trustingTheStore())) {
            String bucket = TestStores.uniqueBucket("tls-" + api.id());
            List<AccessLogEntry> all = new ArrayList<>();
            StoreCallCounts create = counted(store, all, () -> store.createBucket(bucket));
            assertThat(create.calls(CallType.BUCKET_CREATE)).isEqualTo(1);
            assertThat(create.calls(CallType.AUTH)).isEqualTo(api == StoreApi.SWIFT ? 1 : 0);

            ObjectKey key = ObjectKey.of(bucket, "dir/over-tls.txt");
            byte[] data = "sent over TLS".getBytes(StandardCharsets.UTF_8);
            CountedRoundTrip.putGetListDelete(store, all, key, data, "dir/");
            counted(store, all, () -> store.deleteBucket(bucket));

            // Every call reached the proxy through the TLS port (Swift's too: the storage URL is https there).
            assertThat(all).isNotEmpty().allSatisfy(e ->
                    assertThat(e.headers()).as(e.method() + " " + e.path()).contains("Host: localhost:" + tlsPort));
        }
    }

    @Test
    void aPemFileOfTheCaIsATrustStoreToo() throws IOException {
        try (ObjectStore store = open(StoreApi.S3, tls().s3Endpoint(), TlsTrust.of(tls().caPem(), null))) {
            store.createBucket(TestStores.uniqueBucket("tls-pem"));
        }
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void aTrustStoreOfAnotherCaFailsInOneLineNamingTheEndpointAndTheSetting(StoreApi api) {
        TlsTrust otherCa = TlsTrust.of(tls().otherTrustStore(), tls().trustStorePassword());
        assertUntrusted(api, otherCa);
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void theJdkDefaultTrustRejectsThePrivateCaWithTheSameLine(StoreApi api) {
        assertUntrusted(api, TlsTrust.jdkDefault());
    }

    private static void assertUntrusted(StoreApi api, TlsTrust trust) {
        URI endpoint = endpoint(api);
        Throwable e = firstCallFailure(api, endpoint, trust);
        assertOneLine(e);
        assertThat(e.getMessage()).contains("TLS handshake with https://localhost:" + endpoint.getPort() + " failed: "
                + "the server's certificate is not trusted (set fs.stork.ssl.truststore.path to a trust store holding its CA)");
    }

    @ParameterizedTest
    @MethodSource("io.stork.store.StoreApi#wire")
    void aHostTheCertificateDoesNotNameFailsInOneLine(StoreApi api) {
        URI atIp = tls().atIp(endpoint(api));
        Throwable e = firstCallFailure(api, atIp, trustingTheStore());
        assertOneLine(e);
        assertThat(e.getMessage()).contains("TLS handshake with https://127.0.0.1:" + atIp.getPort() + " failed: "
                        + "the server's certificate does not name this host")
                .contains("127.0.0.1")
                .contains(api == StoreApi.S3 ? "set fs.stork.endpoint" : "set fs.stork.swift.auth.url");
    }

    private static Throwable firstCallFailure(StoreApi api, URI endpoint, TlsTrust trust) {
        try (ObjectStore store = open(api, endpoint, trust)) {
            return catchThrowable(() -> store.createBucket(TestStores.uniqueBucket("tls-fail")));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** One line, final (no retries would help), and no chain of handshake exceptions behind it to print. */
    private static void assertOneLine(Throwable e) {
        assertThat(e).isInstanceOf(StoreUnreachableException.class);
        assertThat(((StoreUnreachableException) e).isRetryable()).isFalse();
        assertThat(e.getMessage()).doesNotContain("\n");
        assertThat(e.getCause()).isNull();
    }
}
