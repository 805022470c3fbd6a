package io.stork.store;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/**
 * One bucket's settings, as a {@link StoreProvider} reads them: keys relative to the settings' prefix
 * ({@code "endpoint"} for {@code fs.stork.endpoint}), each resolved per bucket first, then globally. The
 * file system supplies it over Hadoop's configuration (per-bucket keys
 * {@code fs.stork.bucket.<bucket>.<key>}, secrets through Hadoop's credential providers); a backend
 * needs nothing else to read its keys, so none of them is named outside its module.
 *
 * <p>Empty values count as unset. Messages name keys as users write them ({@link #name}) and never hold a
 * secret's value.
 */
public interface StoreSettings {

    /** The bucket these settings are for. */
    String bucket();

    /** The key as a user sets it globally, for messages: {@code fs.stork.access.key}. */
    String name(String key);

    /** A failure of these settings: a one-line message prefixed with the bucket it concerns. */
    IOException invalid(String message);

    /** The value (trimmed), or {@code defaultValue} when unset. */
    String get(String key, String defaultValue);

    /** The value, or a failure naming both the global and the per-bucket key. */
    String required(String key) throws IOException;

    /** A secret (read through the credential providers where there are any); null when unset. */
    String secret(String key) throws IOException;

    /**
     * A secret under its name, else under its deprecated name; the latter is warned about once per JVM
     * (the name, never the value).
     */
    String secret(String key, String deprecatedKey) throws IOException;

    /** A required URL with a scheme and a host, or a failure naming the key. */
    URI uri(String key) throws IOException;

    boolean getBoolean(String key, boolean defaultValue);

    int getInt(String key, int defaultValue);

    /** A size, with an optional unit suffix (k, m, g, t, p: powers of 1024). */
    long getBytes(String key, long defaultValue);

    /** A duration, with an optional unit suffix (ms, s, m, h, d; milliseconds without one). */
    Duration getDuration(String key, Duration defaultValue);
}
