package io.stork.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Paths;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.junit.jupiter.api.Test;

/** The trust settings' value rules and the one-line classification of handshake failures. */
class TlsTrustTest {

    @Test
    void aPasswordOrTypeWithoutAPathLeavesTheJdksTrust_soAGlobalPasswordDoesNotBreakOtherBuckets() throws IOException {
        var settings = new StoreFactoryTest.MapSettings("plain", java.util.Map.of(
                "ssl.truststore.password", "changeit", "ssl.truststore.type", "PKCS12"));
        assertThat(TlsTrust.read(settings).isJdkDefault()).isTrue();
        var missing = new StoreFactoryTest.MapSettings("b", java.util.Map.of(
                "ssl.truststore.path", "/nonexistent/trust.p12", "ssl.truststore.password", "changeit"));
        assertThatThrownBy(() -> TlsTrust.read(missing)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("b: ").hasMessageContaining("test.ssl.truststore.path")
                .hasMessageNotContaining("changeit");
    }

    @Test
    void theTypeFollowsTheExtensionUnlessGiven() {
        assertThat(TlsTrust.of(Paths.get("/etc/ca.jks"), "p").type()).isEqualTo("JKS");
        assertThat(TlsTrust.of(Paths.get("/etc/ca.pem"), null).type()).isEqualTo("PEM");
        assertThat(TlsTrust.of(Paths.get("/etc/ca.crt"), null).type()).isEqualTo("PEM");
        assertThat(TlsTrust.of(Paths.get("/etc/ca.p12"), "p").type()).isEqualTo("PKCS12");
        assertThat(new TlsTrust("/etc/ca.store", "jks", null).type()).isEqualTo("JKS");
        assertThatThrownBy(() -> new TlsTrust("/etc/ca", "BKS", null)).hasMessageContaining("PKCS12, JKS or PEM");
        assertThatThrownBy(() -> new TlsTrust(null, null, "p")).hasMessageContaining("needs a trust store path");
    }

    @Test
    void thePasswordIsNeverShown() {
        assertThat(TlsTrust.of(Paths.get("/etc/ca.p12"), "s3cr3t").toString()).doesNotContain("s3cr3t");
        assertThat(TlsTrust.jdkDefault().toString()).contains("JDK default");
    }

    @Test
    void aMissingFileIsOneLineNamingIt() {
        assertThatThrownBy(() -> TlsTrust.of(Paths.get("/nonexistent/ca.p12"), null).trustManagers())
                .isInstanceOf(IOException.class).hasMessage("trust store /nonexistent/ca.p12 does not exist or cannot be read");
    }

    @Test
    void theJdkDefaultHasNoTrustManagersOfItsOwn() throws IOException {
        assertThat(TlsTrust.jdkDefault().trustManagers()).isNull();
        assertThat(TlsTrust.jdkDefault().sslContext()).isNotNull();
    }

    @Test
    void anUntrustedCertificateNamesTheTrustStoreKey() {
        Exception e = new SSLHandshakeException("PKIX path building failed");
        e.initCause(new CertPathValidatorException("no path"));
        assertThat(TlsFailures.describe(new IOException(e), "https://h:1", "fs.stork.endpoint")).contains(
                "TLS handshake with https://h:1 failed: the server's certificate is not trusted"
                        + " (set fs.stork.ssl.truststore.path to a trust store holding its CA)");
    }

    @Test
    void aHostNameMismatchNamesTheEndpointKey() {
        Exception jdk = new SSLHandshakeException("No subject alternative names matching IP address 127.0.0.1 found");
        jdk.initCause(new CertificateException("No subject alternative names matching IP address 127.0.0.1 found"));
        Exception apache = new SSLPeerUnverifiedException(
                "Certificate for <127.0.0.1> doesn't match any of the subject alternative names: [localhost]");
        for (Exception e : new Exception[] {jdk, apache}) {
            assertThat(TlsFailures.describe(e, "https://127.0.0.1:1", "fs.stork.swift.auth.url").orElseThrow())
                    .startsWith("TLS handshake with https://127.0.0.1:1 failed: the server's certificate does not name"
                            + " this host (")
                    .contains("127.0.0.1").endsWith("set fs.stork.swift.auth.url to a host name the certificate holds)")
                    .doesNotContain("\n");
        }
    }

    @Test
    void otherFailuresAreNotTls() {
        assertThat(TlsFailures.describe(new java.net.ConnectException("refused"), "https://h:1", "k")).isEmpty();
        assertThat(TlsFailures.describe(new javax.net.ssl.SSLException("Unsupported or unrecognized SSL message"),
                "https://h:1", "k").orElseThrow()).contains("is the endpoint's scheme right");
    }
}
