package io.stork.store;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Turns a failed TLS handshake into one line that names the endpoint and the setting to fix, for both
 * clients: the JDK and the SDK's HTTP client otherwise report it as a chain of exceptions ("PKIX path
 * building failed ...") that says neither. Untrusted and mismatched certificates are what operators meet
 * with a private CA; anything else is reported with the JDK's own message.
 */
public final class TlsFailures {

    /** The trust store key as users write it (Hadoop's configuration, the one front end there is). */
    private static final String TRUST_KEY = "fs.stork." + TlsTrust.PATH;

    private TlsFailures() {
    }

    /**
     * The reason, if {@code failure} (or a cause of it) is a TLS failure; empty otherwise.
     *
     * @param endpoint    the URL the client was connecting to ({@code https://host:port})
     * @param endpointKey the setting that names that URL ({@code fs.stork.endpoint}), for host-name mismatches
     */
    public static Optional<String> describe(Throwable failure, String endpoint, String endpointKey) {
        SSLException ssl = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException s && ssl == null) {
                ssl = s;
            }
            if (t instanceof CertPathBuilderException || t instanceof CertPathValidatorException) {
                return Optional.of(prefix(endpoint) + "the server's certificate is not trusted (set "
                        + TRUST_KEY + " to a trust store holding its CA)");
            }
            if (t instanceof CertificateExpiredException || t instanceof CertificateNotYetValidException) {
                return Optional.of(prefix(endpoint) + "the server's certificate is not valid now: "
                        + oneLine(t.getMessage()));
            }
            if (mismatch(t)) {
                return Optional.of(prefix(endpoint) + "the server's certificate does not name this host ("
                        + oneLine(t.getMessage()) + "; set " + endpointKey
                        + " to a host name the certificate holds)");
            }
        }
        if (ssl != null) {
            return Optional.of(prefix(endpoint) + oneLine(ssl.getMessage()) + " (is the endpoint's scheme right:"
                    + " https for a TLS port, http for a plain one?)");
        }
        return Optional.empty();
    }

    /**
     * The JDK's HttpClient reports a mismatch as a CertificateException ("No subject alternative names
     * matching IP address ... found", "No name matching ... found"); the SDK's Apache client as an
     * SSLPeerUnverifiedException ("Certificate for <host> doesn't match any of the subject alternative names").
     */
    private static boolean mismatch(Throwable t) {
        String message = String.valueOf(t.getMessage());
        if (t instanceof SSLPeerUnverifiedException) {
            return message.contains("doesn't match");
        }
        return t instanceof java.security.cert.CertificateException
                && (message.startsWith("No subject alternative") || message.startsWith("No name matching"));
    }

    private static String prefix(String endpoint) {
        return "TLS handshake with " + endpoint + " failed: ";
    }

    private static String oneLine(String text) {
        String line = String.valueOf(text).replace('\n', ' ').replace('\r', ' ').trim();
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
