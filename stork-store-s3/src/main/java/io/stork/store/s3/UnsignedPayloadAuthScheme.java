package io.stork.store.s3;

import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.scheme.AwsV4AuthScheme;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignRequest;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignedRequest;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.identity.spi.IdentityProviders;

/**
 * SigV4 with {@code UNSIGNED-PAYLOAD} over plain HTTP too.
 *
 * <p>Why: over {@code http://} the SDK either signs the body as {@code aws-chunked}, which many S3-compatible
 * stores (Swift's s3api among them) reject with 501, or hashes the whole body with SHA-256 before sending
 * it, which reads every upload twice and costs a core at the throughputs Stork targets. Over HTTPS the SDK
 * already sends {@code UNSIGNED-PAYLOAD} (TLS protects the body); this scheme makes plain HTTP do the same,
 * as S3A's {@code AWS4UnsignedPayloadSignerType} does. The SDK decides by the request's protocol alone,
 * which is not part of the signature, so the request is signed as if it were HTTPS and then sent as HTTP.
 * Endpoints on port 80 keep the SDK's default (the Host header would differ).
 */
final class UnsignedPayloadAuthScheme implements AwsV4AuthScheme {

    private final HttpSigner<AwsCredentialsIdentity> signer = new UnsignedPayloadSigner();

    @Override
    public String schemeId() {
        return SCHEME_ID;
    }

    @Override
    public IdentityProvider<AwsCredentialsIdentity> identityProvider(IdentityProviders providers) {
        return providers.identityProvider(AwsCredentialsIdentity.class);
    }

    @Override
    public AwsV4HttpSigner signer() {
        return (AwsV4HttpSigner) signer;
    }

    private static final class UnsignedPayloadSigner implements AwsV4HttpSigner {

        private final AwsV4HttpSigner delegate = AwsV4HttpSigner.create();

        @Override
        public SignedRequest sign(SignRequest<? extends AwsCredentialsIdentity> request) {
            SdkHttpRequest http = request.request();
            if (!"http".equals(http.protocol()) || http.port() == 80) {
                return delegate.sign(request);
            }
            SdkHttpRequest asHttps = http.toBuilder().protocol("https").port(http.port()).build();
            SignRequest<? extends AwsCredentialsIdentity> unsigned = request.copy(b -> b
                    .request(asHttps)
                    .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                    .putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, false));
            SignedRequest signed = delegate.sign(unsigned);
            return signed.copy(b -> b.request(signed.request().toBuilder().protocol("http").port(http.port()).build()));
        }

        @Override
        public CompletableFuture<AsyncSignedRequest> signAsync(AsyncSignRequest<? extends AwsCredentialsIdentity> request) {
            return delegate.signAsync(request);
        }
    }
}
