package io.stork.hadoop;

import io.stork.store.RetryPolicy;
import io.stork.store.StoreApi;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * Settings of one bucket, read from Hadoop configuration the way S3A does: a default under
 * {@code fs.stork.<key>}, overridable per bucket under {@code fs.stork.bucket.<bucket>.<key>}. Secrets are
 * read with {@link Configuration#getPassword}, so Hadoop credential providers work. Every key is listed in
 * docs/configuration.md.
 */
final class StorkConfig {

    static final String PREFIX = "fs.stork.";

    static final String API = "api";
    static final String ENDPOINT = "endpoint";
    static final String REGION = "region";
    static final String PATH_STYLE_ACCESS = "path.style.access";
    static final String ACCESS_KEY = "access.key";
    /** The S3 secret access key. Named so that Spark's and Hadoop's default redaction both hide it ({@code secret$}). */
    static final String ACCESS_SECRET = "access.secret";
    /** The old name of {@link #ACCESS_SECRET}: still read, with a warning, since Hadoop's redaction misses it. */
    static final String SECRET_KEY_DEPRECATED = "secret.key";
    static final String SWIFT_AUTH_URL = "swift.auth.url";
    static final String SWIFT_USER = "swift.user";
    /** The Swift user's key. Named so that Spark's and Hadoop's default redaction both hide it ({@code password}). */
    static final String SWIFT_PASSWORD = "swift.password";
    /** The old name of {@link #SWIFT_PASSWORD}: still read, with a warning, since no redaction matches it. */
    static final String SWIFT_KEY_DEPRECATED = "swift.key";
    static final String MULTIPART_SIZE = "multipart.size";
    static final String MULTIPART_IN_FLIGHT = "multipart.parts.in.flight";
    static final String SWIFT_UPLOAD_BUFFER_SIZE = "swift.upload.buffer.size";
    static final String SWIFT_UPLOAD_BUFFERS = "swift.upload.buffers";
    /** Segment size of streamed Swift uploads (static large objects); unset: one chunked PUT (up to 5 GiB). */
    static final String SWIFT_SEGMENT_SIZE = "swift.segment.size";
    static final String CONNECTION_MAXIMUM = "connection.maximum";
    static final String CONNECTION_TIMEOUT = "connection.timeout";
    static final String SOCKET_TIMEOUT = "socket.timeout";
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
    static final String S3_CONDITIONAL_WRITES = "s3.conditional.writes";
    static final String RETENTION = "retention";
    static final String CLAIM_TIMEOUT = "commit.claim.timeout";
    static final String CACHE_ENABLED = "cache.enabled";
    static final String CACHE_DIRECTORY = "cache.directory";
    static final String CACHE_SIZE = "cache.size";
    static final String CACHE_BLOCK_SIZE = "cache.block.size";
    /** lru, slru (default), fifo or lfu: which block files go first when the cache is full. */
    static final String CACHE_EVICTION = "cache.eviction";

    private final Configuration conf;
    private final String bucket;

    StorkConfig(Configuration conf, String bucket) {
        this.conf = conf;
        this.bucket = bucket;
    }

    String bucket() {
        return bucket;
    }

    /** The per-bucket key if set, else the default key. */
    private String key(String name) {
        String perBucket = PREFIX + "bucket." + bucket + "." + name;
        return conf.get(perBucket) != null ? perBucket : PREFIX + name;
    }

    String get(String name, String defaultValue) {
        String value = conf.getTrimmed(key(name));
        return value == null || value.isEmpty() ? defaultValue : value;
    }

    String required(String name) throws IOException {
        String value = get(name, null);
        if (value == null) {
            throw new IOException("stork://" + bucket + ": missing configuration " + PREFIX + name + " (or "
                    + PREFIX + "bucket." + bucket + "." + name + ")");
        }
        return value;
    }

    /** A secret, from a credential provider or the configuration; null when absent. */
    String secret(String name) throws IOException {
        String perBucket = PREFIX + "bucket." + bucket + "." + name;
        char[] value = conf.getPassword(perBucket);
        if (value == null) {
            value = conf.getPassword(PREFIX + name);
        }
        return value == null ? null : new String(value);
    }

    /** A secret under its name, else under its deprecated name (warning once per JVM and name, never the value). */
    String secret(String name, String deprecatedName) throws IOException {
        String value = secret(name);
        if (value == null && (value = secret(deprecatedName)) != null) {
            DeprecatedKeys.warnOnce(PREFIX + deprecatedName, PREFIX + name);
        }
        return value;
    }

    StoreApi api() throws IOException {
        String value = get(API, "s3").toLowerCase(Locale.ROOT);
        switch (value) {
            case "s3":
                return StoreApi.S3;
            case "swift":
                return StoreApi.SWIFT;
            case "memory":
                return StoreApi.MEMORY;
            default:
                throw new IOException("stork://" + bucket + ": " + key(API) + " must be s3, swift or memory, not '"
                        + value + "'");
        }
    }

    URI uri(String name) throws IOException {
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

    boolean getBoolean(String name, boolean defaultValue) {
        return conf.getBoolean(key(name), defaultValue);
    }

    int getInt(String name, int defaultValue) {
        return conf.getInt(key(name), defaultValue);
    }

    long getBytes(String name, long defaultValue) {
        return conf.getLongBytes(key(name), defaultValue);
    }

    Duration getDuration(String name, Duration defaultValue) {
        return Duration.ofMillis(conf.getTimeDuration(key(name), defaultValue.toMillis(), TimeUnit.MILLISECONDS));
    }

    /** Retention and claim timeout of the commit point ({@code fs.stork.retention}, {@code fs.stork.commit.claim.timeout}). */
    io.stork.manifest.commit.CommitSettings commitSettings() {
        io.stork.manifest.commit.CommitSettings defaults = io.stork.manifest.commit.CommitSettings.defaults();
        int inlineParts = getInt("manifest.inline.parts", defaults.inlineParts()); // CommitSettings checks it
        return defaults.withRetention(getDuration(RETENTION, defaults.retention()))
                .withClaimTimeout(getDuration(CLAIM_TIMEOUT, defaults.claimTimeout())).withInlineParts(inlineParts);
    }

    RetryPolicy retryPolicy() {
        return new RetryPolicy(getInt(RETRY_LIMIT, RetryPolicy.DEFAULT.maxAttempts()),
                getDuration(RETRY_INTERVAL, RetryPolicy.DEFAULT.baseDelay()),
                getDuration(RETRY_MAX_INTERVAL, RetryPolicy.DEFAULT.maxDelay()));
    }
}
