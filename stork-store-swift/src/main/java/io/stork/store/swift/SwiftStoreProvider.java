package io.stork.store.swift;

import io.stork.store.ObjectStore;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreApi;
import io.stork.store.StoreConfig;
import io.stork.store.StoreProvider;
import io.stork.store.StoreSettings;
import io.stork.store.TlsTrust;
import java.io.IOException;
import java.time.Duration;

/**
 * The Swift client, for {@link io.stork.store.StoreFactory} (service-loaded, {@code fs.stork.api=swift}).
 * Its streaming uploads send one chunked PUT, which cannot be retried part by part, so the policy applies
 * to whole calls only. Its keys are listed in docs/configuration.md; the file system reads none of them.
 */
public final class SwiftStoreProvider implements StoreProvider {

    static final String AUTH_URL = "swift.auth.url";
    /** 1 (tempauth, the default) or 3 (Keystone v3: the other keys in {@link KeystoneKeys}). */
    static final String AUTH_VERSION = "swift.auth.version";
    /** The storage URL to use instead of the one authentication gives (a proxy, or a catalog without Swift). */
    static final String ENDPOINT = "swift.endpoint";
    static final String USER = "swift.user";
    /** The user's key. Named so that Spark's and Hadoop's default redaction both hide it ({@code password}). */
    static final String PASSWORD = "swift.password";
    /** The old name of {@link #PASSWORD}: still read, with a warning, since no redaction matches it. */
    static final String KEY_DEPRECATED = "swift.key";
    static final String UPLOAD_BUFFER_SIZE = "swift.upload.buffer.size";
    static final String UPLOAD_BUFFERS = "swift.upload.buffers";
    /** Segment size of streamed uploads (static large objects); unset: one chunked PUT (up to 5 GiB). */
    static final String SEGMENT_SIZE = "swift.segment.size";
    static final String CONNECTION_TIMEOUT = "connection.timeout";
    static final String SOCKET_TIMEOUT = "socket.timeout";

    @Override
    public StoreApi api() {
        return StoreApi.SWIFT;
    }

    @Override
    public StoreConfig config(StoreSettings s) throws IOException {
        String version = s.get(AUTH_VERSION, "1");
        if (!version.equals("1") && !version.equals("3")) {
            throw s.invalid(s.name(AUTH_VERSION) + " must be 1 (tempauth) or 3 (Keystone v3), not '" + version + "'");
        }
        KeystoneConfig keystone = version.equals("3") ? KeystoneKeys.read(s) : null;
        String user = keystone != null ? s.get(USER, null) : s.required(USER);
        String key = keystone != null ? null : s.secret(PASSWORD, KEY_DEPRECATED);
        if (keystone == null && key == null) {
            throw s.invalid("missing " + s.name(PASSWORD) + " (Swift credentials)");
        }
        try {
            return new SwiftStoreConfig(s.uri(AUTH_URL), user, key, storageUrl(s),
                    (int) s.getBytes(UPLOAD_BUFFER_SIZE, 1024 * 1024),
                    s.getInt(UPLOAD_BUFFERS, 4),
                    s.getDuration(CONNECTION_TIMEOUT, Duration.ofSeconds(10)),
                    s.getDuration(SOCKET_TIMEOUT, Duration.ofSeconds(60)), false,
                    s.getBytes(SEGMENT_SIZE, 0), keystone, TlsTrust.read(s));
        } catch (IllegalArgumentException e) { // the config's own checks: sizes, the auth URL's form, the endpoint's
            throw s.invalid(e.getMessage());
        }
    }

    /** {@link #ENDPOINT}, or null when unset. */
    private static java.net.URI storageUrl(StoreSettings s) throws IOException {
        String value = s.get(ENDPOINT, null);
        if (value == null) {
            return null;
        }
        try {
            java.net.URI url = new java.net.URI(value);
            if (url.getHost() != null && ("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
                return url;
            }
        } catch (java.net.URISyntaxException e) {
            // Reported below, with the key.
        }
        throw s.invalid(s.name(ENDPOINT) + " must be an http(s) storage URL with a host, e.g."
                + " https://swift.example.com/v1/AUTH_<project id>: " + value);
    }

    @Override
    public ObjectStore open(StoreConfig config, RetryPolicy retry) {
        return new SwiftObjectStore((SwiftStoreConfig) config);
    }
}
