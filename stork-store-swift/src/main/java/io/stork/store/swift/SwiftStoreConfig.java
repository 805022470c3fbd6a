package io.stork.store.swift;

import java.net.URI;
import java.time.Duration;
import io.stork.store.TlsTrust;
import java.util.Objects;

/**
 * Settings of a Swift client. Authentication is tempauth / Swift v1 ({@code GET <authUrl>} with
 * {@code X-Auth-User}/{@code X-Auth-Key}) by default, or Keystone v3 when {@code keystone} is set (then
 * {@code authUrl} is Keystone's, and {@code user}/{@code key} are unused: the Keystone settings hold the
 * credentials). {@link #toString()} never shows the key.
 *
 * @param storageUrlOverride use this storage URL instead of the one the auth service returns (for
 *                           stores behind a proxy that rewrites addresses); null to use the returned one
 * @param uploadChunkSize    bytes per buffer of a streaming upload; also the size below which a stream
 *                           is sent as one PUT of known length instead of a chunked PUT
 * @param uploadBuffers      buffers a streaming upload may queue; memory per stream is at most
 *                           {@code (uploadBuffers + 2) * uploadChunkSize}
 * @param verifyUploads      compute the MD5 of streamed uploads and compare it with the ETag the store
 *                           returns (costs about a third of a core at 300 MB/s; off by default, as TCP
 *                           and the store's own checks already guard the transfer)
 * @param segmentSize        0: a streamed object is one chunked PUT, so at most the store's single-object
 *                           limit (5 GiB by default); otherwise a streamed object past the first buffer is
 *                           uploaded as a static large object in segments of this many bytes (1 MiB to
 *                           5 GiB), up to 1,000 segments
 * @param keystone           Keystone v3 settings; null for tempauth
 * @param tls                whom the certificates of https auth and storage URLs must be signed by (null: the
 *                           JDK's default trust)
 */
public record SwiftStoreConfig(URI authUrl, String user, String key, URI storageUrlOverride,
                               int uploadChunkSize, int uploadBuffers, Duration connectTimeout,
                               Duration requestTimeout, boolean verifyUploads, long segmentSize,
                               KeystoneConfig keystone, TlsTrust tls)
        implements io.stork.store.StoreConfig {

    private static final long MIB = 1024 * 1024;

    public SwiftStoreConfig {
        Objects.requireNonNull(authUrl, "authUrl");
        if (authUrl.getScheme() == null || authUrl.getHost() == null
                || !(authUrl.getScheme().equals("http") || authUrl.getScheme().equals("https"))) {
            throw new IllegalArgumentException("Swift auth URL must be an http(s) URL with a host: " + authUrl);
        }
        if (keystone == null && (user == null || user.isBlank() || key == null)) {
            throw new IllegalArgumentException("Swift credentials need a user and a key");
        }
        if (uploadChunkSize < 8 * 1024 || uploadBuffers < 1) {
            throw new IllegalArgumentException("upload chunk size must be at least 8 KiB and buffers at least 1");
        }
        if (segmentSize != 0 && (segmentSize < MIB || segmentSize > SwiftLargeObjects.MAX_SEGMENT_SIZE)) {
            throw new IllegalArgumentException("Swift segment size (fs.stork.swift.segment.size) must be 0 (no segments) or 1 MiB to 5 GiB: "
                    + segmentSize);
        }
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        tls = tls == null ? TlsTrust.jdkDefault() : tls;
    }

    /** With tempauth and the JDK's default trust for https URLs. */
    public SwiftStoreConfig(URI authUrl, String user, String key, URI storageUrlOverride, int uploadChunkSize,
                            int uploadBuffers, Duration connectTimeout, Duration requestTimeout, boolean verifyUploads,
                            long segmentSize) {
        this(authUrl, user, key, storageUrlOverride, uploadChunkSize, uploadBuffers, connectTimeout, requestTimeout,
                verifyUploads, segmentSize, null, TlsTrust.jdkDefault());
    }

    /** Without segmented uploads. */
    public SwiftStoreConfig(URI authUrl, String user, String key, URI storageUrlOverride, int uploadChunkSize,
                            int uploadBuffers, Duration connectTimeout, Duration requestTimeout, boolean verifyUploads) {
        this(authUrl, user, key, storageUrlOverride, uploadChunkSize, uploadBuffers, connectTimeout, requestTimeout,
                verifyUploads, 0);
    }

    /** Defaults: 1 MiB chunks, 4 queued (about 6 MiB per stream), 10 s connect, 60 s to first response byte. */
    public static SwiftStoreConfig of(URI authUrl, String user, String key) {
        return new SwiftStoreConfig(authUrl, user, key, null, 1024 * 1024, 4, Duration.ofSeconds(10),
                Duration.ofSeconds(60), false);
    }

    public SwiftStoreConfig withUploadBuffers(int chunkSize, int buffers) {
        return new SwiftStoreConfig(authUrl, user, key, storageUrlOverride, chunkSize, buffers, connectTimeout,
                requestTimeout, verifyUploads, segmentSize, keystone, tls);
    }

    public SwiftStoreConfig withTimeouts(Duration connect, Duration request) {
        return new SwiftStoreConfig(authUrl, user, key, storageUrlOverride, uploadChunkSize, uploadBuffers,
                connect, request, verifyUploads, segmentSize, keystone, tls);
    }

    public SwiftStoreConfig withCredentials(String newUser, String newKey) {
        return new SwiftStoreConfig(authUrl, newUser, newKey, storageUrlOverride, uploadChunkSize, uploadBuffers,
                connectTimeout, requestTimeout, verifyUploads, segmentSize, keystone, tls);
    }

    public SwiftStoreConfig withStorageUrlOverride(URI url) {
        return new SwiftStoreConfig(authUrl, user, key, url, uploadChunkSize, uploadBuffers, connectTimeout,
                requestTimeout, verifyUploads, segmentSize, keystone, tls);
    }

    public SwiftStoreConfig withUploadVerification(boolean verify) {
        return new SwiftStoreConfig(authUrl, user, key, storageUrlOverride, uploadChunkSize, uploadBuffers,
                connectTimeout, requestTimeout, verify, segmentSize, keystone, tls);
    }

    /** Streamed objects past the first buffer become static large objects in segments of {@code bytes}. */
    public SwiftStoreConfig withSegmentSize(long bytes) {
        return new SwiftStoreConfig(authUrl, user, key, storageUrlOverride, uploadChunkSize, uploadBuffers,
                connectTimeout, requestTimeout, verifyUploads, bytes, keystone, tls);
    }

    /** Keystone v3 authentication at {@code authUrl} instead of tempauth. */
    public SwiftStoreConfig withKeystone(KeystoneConfig settings) {
        return new SwiftStoreConfig(authUrl, user, key, storageUrlOverride, uploadChunkSize, uploadBuffers,
                connectTimeout, requestTimeout, verifyUploads, segmentSize, settings, tls);
    }

    /** Trusting {@code trust} for https auth and storage URLs. */
    public SwiftStoreConfig withTls(TlsTrust trust) {
        return new SwiftStoreConfig(authUrl, user, key, storageUrlOverride, uploadChunkSize, uploadBuffers,
                connectTimeout, requestTimeout, verifyUploads, segmentSize, keystone, trust);
    }

    @Override
    public String toString() {
        if (keystone != null) {
            return "SwiftStoreConfig[Keystone v3 at " + authUrl + ", " + keystone
                    + (storageUrlOverride == null ? "" : ", storageUrl=" + storageUrlOverride) + ", tls=" + tls + "]";
        }
        return "SwiftStoreConfig[authUrl=" + authUrl + ", user=" + user + ", key=****"
                + (storageUrlOverride == null ? "" : ", storageUrl=" + storageUrlOverride) + ", tls=" + tls + "]";
    }

    @Override
    public io.stork.store.StoreApi api() {
        return io.stork.store.StoreApi.SWIFT;
    }
}
