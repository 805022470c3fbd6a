package io.stork.hadoop;

import io.stork.hadoop.settings.StorkSettings;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreSettings;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * Settings of one bucket, read from Hadoop configuration the way S3A does: a default under
 * {@code fs.stork.<key>}, overridable per bucket under {@code fs.stork.bucket.<bucket>.<key>}. Secrets are
 * read with {@link Configuration#getPassword}, so Hadoop credential providers work. Every key is listed in
 * docs/configuration.md. The file system's own keys are named here; a store's (endpoint, credentials,
 * upload sizes) are read by its {@link io.stork.store.StoreProvider} through the {@link StoreSettings} view.
 */
final class StorkConfig implements StoreSettings {

    static final String PREFIX = "fs.stork.";

    static final String API = "api";
    static final String RETRY_LIMIT = "retry.limit";
    static final String RETRY_INTERVAL = "retry.interval";
    static final String RETRY_MAX_INTERVAL = "retry.max.interval";
    static final String READAHEAD_RANGE = "readahead.range";
    static final String READ_WHOLE_OBJECT_SIZE = "read.whole.object.size";
    static final String READ_TAIL_SIZE = "read.tail.size";
    static final String READ_TAIL_EXACT = "read.tail.exact";
    static final String BLOCK_SIZE = "block.size";
    static final String VECTORED_READ_THREADS = "vectored.read.threads";
    static final String STATUS_CACHE_SIZE = "status.cache.size";
    static final String STATUS_CACHE_TTL = "status.cache.ttl";
    static final String READ_RAW = "read.raw";
    static final String CLASSIC_COMMITTER_EMULATION = "classic.committer.emulation";
    static final String MANIFEST_CACHE_SIZE = "manifest.cache.size";
    static final String MANIFEST_CACHE_TTL = "manifest.cache.ttl";
    static final String CACHE_ENABLED = "cache.enabled";
    static final String CACHE_DIRECTORY = "cache.directory";
    static final String CACHE_SIZE = "cache.size";
    static final String CACHE_BLOCK_SIZE = "cache.block.size";
    /** lru, slru (default), fifo or lfu: which block files go first when the cache is full. */
    static final String CACHE_EVICTION = "cache.eviction";

    private final Configuration conf;
    private final String bucket;
    /** Every typed value is read through it: one parser and one error per key (io.stork.hadoop.settings). */
    private final StorkSettings settings;

    StorkConfig(Configuration conf, String bucket) {
        this.conf = conf;
        this.bucket = bucket;
        this.settings = StorkSettings.of(conf, bucket);
    }

    @Override
    public String bucket() {
        return bucket;
    }

    /** The per-bucket key if set, else the default key. */
    private String key(String name) {
        return settings.key(name);
    }

    @Override
    public String get(String name, String defaultValue) {
        String value = settings.text(name);
        return value == null ? defaultValue : value;
    }

    @Override
    public String required(String name) throws IOException {
        String value = get(name, null);
        if (value == null) {
            throw new IOException("stork://" + bucket + ": missing configuration " + PREFIX + name + " (or "
                    + PREFIX + "bucket." + bucket + "." + name + ")");
        }
        return value;
    }

    /** A secret, from a credential provider or the configuration; null when absent. */
    @Override
    public String secret(String name) throws IOException {
        String perBucket = PREFIX + "bucket." + bucket + "." + name;
        char[] value = conf.getPassword(perBucket);
        if (value == null) {
            value = conf.getPassword(PREFIX + name);
        }
        return value == null ? null : new String(value);
    }

    /** A secret under its name, else under its deprecated name (warning once per JVM and name, never the value). */
    @Override
    public String secret(String name, String deprecatedName) throws IOException {
        String value = secret(name);
        if (value == null && (value = secret(deprecatedName)) != null) {
            DeprecatedKeys.warnOnce(PREFIX + deprecatedName, PREFIX + name);
        }
        return value;
    }

    /** The API's id ({@code fs.stork.api}, default s3), lower case: picks the store's provider. */
    String api() {
        return get(API, "s3").toLowerCase(Locale.ROOT);
    }

    /** The key the API was read from, per bucket or global, for messages. */
    String apiKey() {
        return key(API);
    }

    @Override
    public String name(String key) {
        return PREFIX + key;
    }

    @Override
    public IOException invalid(String message) {
        return new IOException("stork://" + bucket + ": " + message);
    }

    @Override
    public URI uri(String name) throws IOException {
        String value = required(name);
        try {
            URI uri = new URI(value);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IOException("stork://" + bucket + ": " + key(name) + " is not an http(s) URL: " + value);
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            throw new IOException("stork://" + bucket + ": " + key(name) + " is not a valid URL: " + value);
        }
    }

    @Override
    public boolean getBoolean(String name, boolean defaultValue) {
        return settings.bool(name, defaultValue);
    }

    @Override
    public int getInt(String name, int defaultValue) {
        return settings.integer(name, defaultValue, Integer.MIN_VALUE);
    }

    @Override
    public long getBytes(String name, long defaultValue) {
        return settings.bytes(name, defaultValue);
    }

    @Override
    public Duration getDuration(String name, Duration defaultValue) {
        return settings.duration(name, defaultValue);
    }

    /** Retention, claim timeout and inline parts of the commit point, as the committers read them. */
    io.stork.manifest.commit.CommitSettings commitSettings() {
        return settings.commitSettings();
    }

    RetryPolicy retryPolicy() {
        return new RetryPolicy(getInt(RETRY_LIMIT, RetryPolicy.DEFAULT.maxAttempts()),
                getDuration(RETRY_INTERVAL, RetryPolicy.DEFAULT.baseDelay()),
                getDuration(RETRY_MAX_INTERVAL, RetryPolicy.DEFAULT.maxDelay()));
    }
}
