package io.stork.store.s3;

import io.stork.store.s3.credentials.CredentialOptions;
import java.net.URI;
import java.time.Duration;
import io.stork.store.TlsTrust;
import java.util.Objects;

/**
 * Settings of an S3 client. {@code accessKey}/{@code secretKey} may be null: the client then takes
 * credentials from the provider classes or the SDK's default chain that {@code credentials} leads to
 * ({@link io.stork.store.s3.credentials.S3Credentials}). {@link #toString()} never shows a secret.
 *
 * @param partSize          bytes per multipart part of a streaming upload (and the single-PUT threshold)
 * @param maxPartsInFlight  parts uploading at once; a stream holds at most {@code (maxPartsInFlight + 1) * partSize}
 * @param conditionalWrites the endpoint honours {@code If-None-Match: *} on PUT (AWS S3 since 2024, several
 *                          S3-compatible stores; not Swift's s3api, which answers 501): creates without
 *                          overwrite are then atomic on the store
 * @param credentials       the session token of the explicit keys, provider classes, profile
 */
public record S3StoreConfig(URI endpoint, String region, boolean pathStyleAccess, String accessKey,
                            String secretKey, long partSize, int maxPartsInFlight, int maxConnections,
                            Duration connectTimeout, Duration socketTimeout, boolean conditionalWrites,
                            CredentialOptions credentials, TlsTrust tls)
        implements io.stork.store.StoreConfig {

    public static final long MIN_PART_SIZE = 5L * 1024 * 1024;
    // 32 MiB: each part costs the store a request of its own; on the local store 8 MiB parts ran at 0.6x and
    // 32-64 MiB at 0.9-1.0x of one single PUT (docs/benchmarks/store-throughput.md), while 2 in flight
    // keep a stream's memory at 96 MiB.
    public static final long DEFAULT_PART_SIZE = 32L * 1024 * 1024;
    public static final int DEFAULT_PARTS_IN_FLIGHT = 2;

    public S3StoreConfig {
        Objects.requireNonNull(endpoint, "endpoint");
        if (endpoint.getScheme() == null || endpoint.getHost() == null
                || !(endpoint.getScheme().equals("http") || endpoint.getScheme().equals("https"))) {
            throw new IllegalArgumentException("S3 endpoint must be an http(s) URL with a host: " + endpoint);
        }
        region = region == null || region.isBlank() ? "us-east-1" : region;
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException("S3 credentials need both an access key and a secret key");
        }
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("S3 part size must be at least 5 MiB (the S3 minimum): " + partSize);
        }
        if (partSize > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("S3 part size must be below 2 GiB: " + partSize);
        }
        if (maxPartsInFlight < 1 || maxConnections < 1) {
            throw new IllegalArgumentException("parts in flight and connections must be at least 1");
        }
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(socketTimeout, "socketTimeout");
        credentials = credentials == null ? CredentialOptions.NONE : credentials;
        if (credentials.sessionToken() != null && accessKey == null) {
            throw new IllegalArgumentException("an S3 session token needs the access key and secret it belongs to");
        }
        tls = tls == null ? TlsTrust.jdkDefault() : tls;
    }

    /** Settings without session token, provider classes or profile, with the JDK's default trust. */
    public S3StoreConfig(URI endpoint, String region, boolean pathStyleAccess, String accessKey, String secretKey,
                         long partSize, int maxPartsInFlight, int maxConnections, Duration connectTimeout,
                         Duration socketTimeout, boolean conditionalWrites) {
        this(endpoint, region, pathStyleAccess, accessKey, secretKey, partSize, maxPartsInFlight, maxConnections,
                connectTimeout, socketTimeout, conditionalWrites, CredentialOptions.NONE, TlsTrust.jdkDefault());
    }

    /** Defaults for an endpoint: path-style, 32 MiB parts, 2 in flight (96 MiB per stream), 32 connections. */
    public static S3StoreConfig of(URI endpoint, String region, String accessKey, String secretKey) {
        return new S3StoreConfig(endpoint, region, true, accessKey, secretKey, DEFAULT_PART_SIZE,
                DEFAULT_PARTS_IN_FLIGHT, 32,
                Duration.ofSeconds(10), Duration.ofSeconds(60), false);
    }

    public S3StoreConfig withPartSize(long size, int inFlight) {
        return new S3StoreConfig(endpoint, region, pathStyleAccess, accessKey, secretKey, size, inFlight,
                maxConnections, connectTimeout, socketTimeout, conditionalWrites, credentials, tls);
    }

    public S3StoreConfig withTimeouts(Duration connect, Duration socket) {
        return new S3StoreConfig(endpoint, region, pathStyleAccess, accessKey, secretKey, partSize,
                maxPartsInFlight, maxConnections, connect, socket, conditionalWrites, credentials, tls);
    }

    public S3StoreConfig withCredentials(String newAccessKey, String newSecretKey) {
        // A session token belongs to the keys it was issued with: new keys drop it.
        return new S3StoreConfig(endpoint, region, pathStyleAccess, newAccessKey, newSecretKey, partSize,
                maxPartsInFlight, maxConnections, connectTimeout, socketTimeout, conditionalWrites,
                credentials.withSessionToken(null), tls);
    }

    public S3StoreConfig withCredentialOptions(CredentialOptions options) {
        return new S3StoreConfig(endpoint, region, pathStyleAccess, accessKey, secretKey, partSize,
                maxPartsInFlight, maxConnections, connectTimeout, socketTimeout, conditionalWrites, options, tls);
    }

    @Override
    public io.stork.store.StoreApi api() {
        return io.stork.store.StoreApi.S3;
    }

    public S3StoreConfig withConditionalWrites(boolean enabled) {
        return new S3StoreConfig(endpoint, region, pathStyleAccess, accessKey, secretKey, partSize,
                maxPartsInFlight, maxConnections, connectTimeout, socketTimeout, enabled, credentials, tls);
    }

    /** Trusting {@code trust} for an https endpoint. */
    public S3StoreConfig withTls(TlsTrust trust) {
        return new S3StoreConfig(endpoint, region, pathStyleAccess, accessKey, secretKey, partSize,
                maxPartsInFlight, maxConnections, connectTimeout, socketTimeout, conditionalWrites, credentials, trust);
    }

    /** Path-style ({@code endpoint/bucket/key}) or virtual-hosted-style ({@code bucket.endpoint/key}) requests. */
    public S3StoreConfig withPathStyleAccess(boolean pathStyle) {
        return new S3StoreConfig(endpoint, region, pathStyle, accessKey, secretKey, partSize,
                maxPartsInFlight, maxConnections, connectTimeout, socketTimeout, conditionalWrites, credentials, tls);
    }

    /** Signing for {@code newRegion} (the store checks it against its own). */
    public S3StoreConfig withRegion(String newRegion) {
        return new S3StoreConfig(endpoint, newRegion, pathStyleAccess, accessKey, secretKey, partSize,
                maxPartsInFlight, maxConnections, connectTimeout, socketTimeout, conditionalWrites, credentials, tls);
    }

    @Override
    public String toString() {
        return "S3StoreConfig[endpoint=" + endpoint + ", region=" + region + ", pathStyle=" + pathStyleAccess
                + ", accessKey=" + (accessKey == null ? "(environment)" : accessKey)
                + ", secretKey=" + (secretKey == null ? "(environment)" : "****")
                + ", partSize=" + partSize + ", partsInFlight=" + maxPartsInFlight
                + ", conditionalWrites=" + conditionalWrites + ", credentials=" + credentials + ", tls=" + tls + "]";
    }
}
