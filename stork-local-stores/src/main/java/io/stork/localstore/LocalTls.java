package io.stork.localstore;

import java.net.URI;
import java.nio.file.Path;

/**
 * The local store's https endpoint (scripts/local-store.sh start --tls): stunnel in front of the same proxy,
 * so calls are counted in the same access log. Its certificate names {@code localhost} (and the vhost
 * domain), not {@code 127.0.0.1}, and is signed by a CA of the script's own.
 *
 * @param s3Endpoint       {@code https://localhost:<port>}
 * @param swiftAuthUrl     tempauth over TLS; {@link #swiftUser} gets an https storage URL back
 * @param trustStore       a PKCS12 trust store holding the CA, with {@link #trustStorePassword}
 * @param caPem            the same CA as a PEM file
 * @param otherTrustStore  a PKCS12 trust store (same password) holding only a CA that signed nothing here
 */
public record LocalTls(URI s3Endpoint, URI swiftAuthUrl, String swiftUser, String swiftKey, Path trustStore,
                       String trustStorePassword, Path caPem, Path otherTrustStore) {

    /** The TLS port at an address its certificate does not name: a host-name mismatch. */
    public URI atIp(URI url) {
        return URI.create(url.toString().replaceFirst("//localhost:", "//127.0.0.1:"));
    }
}
