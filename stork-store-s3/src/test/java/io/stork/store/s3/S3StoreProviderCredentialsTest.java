package io.stork.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stork.store.StoreSettings;
import io.stork.store.s3.credentials.TestProviders;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The credential keys as the provider reads them from a bucket's settings. */
class S3StoreProviderCredentialsTest {

    private static S3StoreConfig config(Map<String, String> values) throws IOException {
        Map<String, String> all = new HashMap<>(values);
        all.put("endpoint", "http://127.0.0.1:9");
        return (S3StoreConfig) new S3StoreProvider().config(new Settings(all));
    }

    private static String failure(Map<String, String> values) {
        Throwable t = catchThrowable(() -> config(values));
        assertThat(t).isInstanceOf(IOException.class);
        assertThat(t.getMessage()).doesNotContain("\n").doesNotContain("s3cr3t");
        return t.getMessage();
    }

    @Test
    void keysWithASessionTokenProviderClassesAndAProfile() throws IOException {
        S3StoreConfig keys = config(Map.of("access.key", "id", "access.secret", "s3cr3t", "session.secret", "s3cr3t-tok"));
        assertThat(keys.credentials().sessionToken()).isEqualTo("s3cr3t-tok");
        assertThat(keys.toString()).doesNotContain("s3cr3t");

        S3StoreConfig classes = config(Map.of("s3.credentials.provider",
                TestProviders.Counting.class.getName() + ", " + TestProviders.ByFactory.class.getName(),
                "s3.credentials.profile", "nightly"));
        assertThat(classes.credentials().providers()).containsExactly(TestProviders.Counting.class.getName(),
                TestProviders.ByFactory.class.getName());
        assertThat(classes.credentials().providersKey()).isEqualTo("fs.stork.s3.credentials.provider");
        assertThat(classes.credentials().profile()).isEqualTo("nightly");
        assertThat(classes.accessKey()).isNull();
    }

    @Test
    void closingTheStoreClosesTheCredentialProvidersItMade() throws IOException {
        TestProviders.Closing.CLOSED.set(0);
        TestProviders.Shared.CLOSED.set(0);
        S3StoreConfig classes = config(Map.of("s3.credentials.provider",
                TestProviders.Shared.class.getName() + "," + TestProviders.Closing.class.getName()));
        S3ObjectStore store = new S3ObjectStore(classes);
        assertThat(TestProviders.Closing.CLOSED.get()).isZero();
        store.close();
        store.close();
        // Made by its constructor for this store: closed once, so the default chain's (or a user's) refresh
        // threads and connections do not outlive the store. Made by a static create(): maybe shared by the
        // JVM (DefaultCredentialsProvider.create() is), so left open.
        assertThat(TestProviders.Closing.CLOSED.get()).isEqualTo(1);
        assertThat(TestProviders.Shared.CLOSED.get()).isZero();
    }

    @Test
    void oneLineFailuresNamingTheKey() {
        assertThat(failure(Map.of("session.secret", "s3cr3t"))).isEqualTo("b: fs.stork.session.secret needs "
                + "fs.stork.access.key and fs.stork.access.secret (the keys it was issued with)");
        assertThat(failure(Map.of("access.key", "id", "access.secret", "s3cr3t", "session.token", "s3cr3t")))
                .isEqualTo("b: fs.stork.session.token is not read: set the session token as fs.stork.session.secret"
                        + " (a name Hadoop's and Spark's redaction hide)");
        assertThat(failure(Map.of("s3.credentials.provider", "com.example.Nope")))
                .isEqualTo("b: fs.stork.s3.credentials.provider: class com.example.Nope not found");
        assertThat(failure(Map.of("s3.credentials.provider", "java.lang.Object")))
                .startsWith("b: fs.stork.s3.credentials.provider: java.lang.Object is not an AWS credentials provider");
    }

    /** Settings from a map, named as the file system names them (no per-bucket keys). */
    private record Settings(Map<String, String> values) implements StoreSettings {
        public String bucket() {
            return "b";
        }

        public String name(String key) {
            return "fs.stork." + key;
        }

        public IOException invalid(String message) {
            return new IOException("b: " + message);
        }

        public String get(String key, String defaultValue) {
            String v = values.get(key);
            return v == null || v.isBlank() ? defaultValue : v.trim();
        }

        public String required(String key) throws IOException {
            String v = get(key, null);
            if (v == null) {
                throw invalid("missing " + name(key));
            }
            return v;
        }

        public String secret(String key) {
            return get(key, null);
        }

        public String secret(String key, String deprecatedKey) {
            return secret(key) != null ? secret(key) : secret(deprecatedKey);
        }

        public URI uri(String key) throws IOException {
            return URI.create(required(key));
        }

        public boolean getBoolean(String key, boolean defaultValue) {
            return values.containsKey(key) ? Boolean.parseBoolean(values.get(key)) : defaultValue;
        }

        public int getInt(String key, int defaultValue) {
            return values.containsKey(key) ? Integer.parseInt(values.get(key)) : defaultValue;
        }

        public long getBytes(String key, long defaultValue) {
            return defaultValue;
        }

        public Duration getDuration(String key, Duration defaultValue) {
            return defaultValue;
        }
    }
}
