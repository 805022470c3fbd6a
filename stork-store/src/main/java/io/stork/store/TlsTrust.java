package io.stork.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Which certificate authorities a client trusts for {@code https://} endpoints: the JDK's default trust
 * (its cacerts, or {@code javax.net.ssl.trustStore} if the JVM sets one) unless a trust store is
 * configured. Both clients take it from here (the S3 client's SDK as trust managers, the Swift client's
 * JDK HttpClient as an SSL context), so both read the same keys and fail the same way. Host names are
 * always verified; there is deliberately no key to turn that off.
 *
 * <p>Keys (per bucket like every key): {@code ssl.truststore.path}, {@code ssl.truststore.type} ({@code PKCS12},
 * {@code JKS} or {@code PEM}; by default from the file's extension, else PKCS12) and
 * {@code ssl.truststore.password}, a secret (a Hadoop credential provider may hold it; its name ends in
 * {@code password} so that Hadoop's and Spark's redaction hide it). A value: {@link #toString()} hides the
 * password.
 *
 * @param path     the trust store file, or null for the JDK's default trust
 * @param type     PKCS12, JKS or PEM (one or more X.509 certificates, no password)
 * @param password the store's password, or null (PKCS12 and JKS stores can be read without one)
 */
public record TlsTrust(String path, String type, String password) {

    public static final String PATH = "ssl.truststore.path";
    public static final String TYPE = "ssl.truststore.type";
    public static final String PASSWORD = "ssl.truststore.password";

    private static final TlsTrust JDK_DEFAULT = new TlsTrust(null, null, null);

    public TlsTrust {
        if (path == null && (type != null || password != null)) {
            throw new IllegalArgumentException("a trust store type or password needs a trust store path");
        }
        if (path != null) {
            type = type == null ? typeOf(path) : type.toUpperCase(Locale.ROOT);
            if (!(type.equals("PKCS12") || type.equals("JKS") || type.equals("PEM"))) {
                throw new IllegalArgumentException("trust store type must be PKCS12, JKS or PEM, not " + type);
            }
        }
    }

    /** The JDK's default trust. */
    public static TlsTrust jdkDefault() {
        return JDK_DEFAULT;
    }

    /** A trust store of the type its extension says (.jks: JKS, .pem/.crt/.cer: PEM, else PKCS12). */
    public static TlsTrust of(Path trustStore, String password) {
        return new TlsTrust(trustStore.toString(), null, password);
    }

    /**
     * The trust a bucket's settings name, checked by loading it once here, so that a missing file or a
     * wrong password fails when the store is opened, naming the key, rather than at the first call.
     */
    public static TlsTrust read(StoreSettings settings) throws IOException {
        String path = settings.get(PATH, null);
        String type = settings.get(TYPE, null);
        if (path == null) {
            // A type or password alone is not an error: they may be set for every bucket (a credential
            // provider holding the global password) while only some buckets name a trust store.
            return JDK_DEFAULT;
        }
        String password = settings.secret(PASSWORD);
        TlsTrust trust;
        try {
            trust = new TlsTrust(path, type, password);
        } catch (IllegalArgumentException e) {
            throw settings.invalid(e.getMessage() + " (" + settings.name(TYPE) + ")");
        }
        try {
            trust.trustManagers();
        } catch (IOException e) {
            throw settings.invalid(e.getMessage() + " (" + settings.name(PATH) + ")");
        }
        return trust;
    }

    public boolean isJdkDefault() {
        return path == null;
    }

    /** Trust managers for the configured store, or null for the JDK's default trust. */
    public TrustManager[] trustManagers() throws IOException {
        if (path == null) {
            return null;
        }
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(load());
            return factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use trust store " + path + ": " + e.getMessage(), e);
        }
    }

    /** An SSL context trusting the configured store, or the JDK's default context. */
    public SSLContext sslContext() throws IOException {
        try {
            if (path == null) {
                return SSLContext.getDefault();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private KeyStore load() throws IOException, GeneralSecurityException {
        Path file = Paths.get(path);
        if (!Files.isReadable(file)) {
            throw new IOException("trust store " + path + " does not exist or cannot be read");
        }
        try (InputStream in = Files.newInputStream(file)) {
            if (type.equals("PEM")) {
                KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
                store.load(null, null);
                int n = 0;
                for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                    store.setCertificateEntry("ca-" + n++, certificate);
                }
                if (n == 0) {
                    throw new IOException("trust store " + path + " holds no PEM certificate");
                }
                return store;
            }
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password == null ? null : password.toCharArray());
            return store;
        } catch (IOException e) {
            // KeyStore.load reports a wrong password as an IOException whose cause is UnrecoverableKeyException.
            if (e.getCause() instanceof java.security.UnrecoverableKeyException) {
                throw new IOException("cannot open trust store " + path + ": wrong password", e);
            }
            if (e.getMessage() != null && e.getMessage().startsWith("trust store ")) {
                throw e;
            }
            throw new IOException("cannot read trust store " + path + " as " + type + ": " + e.getMessage(), e);
        }
    }

    private static String typeOf(String path) {
        String name = path.toLowerCase(Locale.ROOT);
        if (name.endsWith(".jks")) {
            return "JKS";
        }
        if (name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer")) {
            return "PEM";
        }
        return "PKCS12";
    }

    @Override
    public String toString() {
        return path == null ? "TlsTrust[JDK default]"
                : "TlsTrust[" + path + ", " + type + (password == null ? "" : ", password=****") + "]";
    }
}
