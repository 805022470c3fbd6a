package io.stork.store.s3;

import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * Builds the SDK client the way S3-compatible stores need it. Each setting here answers a known
 * incompatibility; see docs/object-store-clients.md.
 */
final class S3ClientFactory {

    private S3ClientFactory() {
    }

    static S3Client create(S3StoreConfig config, S3CallCounter counter,
                           software.amazon.awssdk.auth.credentials.AwsCredentialsProvider credentials) {
        return S3Client.builder()
                .endpointOverride(config.endpoint())
                .region(Region.of(config.region()))
                .credentialsProvider(credentials)
                .forcePathStyle(config.pathStyleAccess())
                // Recent SDKs add CRC checksums (sent as aws-chunked trailers) to every upload; stores
                // without aws-chunked support answer 501. Send and check checksums only where S3 requires.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                // Multi-object delete needs Content-MD5 on stores that predate the CRC checksums.
                .addPlugin(LegacyMd5Plugin.create())
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
                .putAuthScheme(new UnsignedPayloadAuthScheme())
                .httpClientBuilder(httpClient(config))
                // Retries belong to Stork's RetryPolicy (one policy for both APIs, idempotent calls only).
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD)
                        .retryStrategy(b -> b.maxAttempts(1))
                        .addExecutionInterceptor(counter)
                        .build())
                .build();
    }

    private static ApacheHttpClient.Builder httpClient(S3StoreConfig config) {
        ApacheHttpClient.Builder builder = ApacheHttpClient.builder()
                .maxConnections(config.maxConnections())
                .connectionTimeout(config.connectTimeout())
                .socketTimeout(config.socketTimeout())
                .tcpKeepAlive(true);
        if (!config.tls().isJdkDefault()) {
            // Loaded when the client is built; the provider checked the store when it read the settings.
            builder.tlsTrustManagersProvider(() -> {
                try {
                    return config.tls().trustManagers();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        return builder;
    }
}
