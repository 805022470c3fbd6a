package io.stork.store.s3.credentials;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * The credentials of an S3 client, from the SDK's own providers, the first of these that is configured:
 * <ol>
 *   <li>explicit keys ({@code access.key}, {@code access.secret}, optionally {@code session.secret}): used
 *       alone, so a client with keys never probes the environment, a profile or instance metadata;</li>
 *   <li>the provider classes of {@code s3.credentials.provider}, tried in order (the SDK's chain, which
 *       keeps using the first that answered);</li>
 *   <li>the SDK's default chain: environment, system properties, web identity token file (STS), profile
 *       file, container credentials, instance metadata (IMDS).</li>
 * </ol>
 * A list replaces the default chain, as S3A's {@code fs.s3a.aws.credentials.provider} replaces its own;
 * ending the list with {@code DefaultCredentialsProvider} falls back to it. When nothing answers, the
 * first call fails with a one-line message naming what was tried ({@link #MISSING}), never a secret.
 */
public final class S3Credentials {

    /** The start of the message of a call that found no credentials (S3Errors recognizes it). */
    public static final String MISSING = "no S3 credentials";

    private S3Credentials() {
    }

    /**
     * Checks the provider classes of {@code options} without constructing them (at configuration time): an
     * {@link IllegalArgumentException} with a one-line message naming the key and the class.
     */
    public static void check(CredentialOptions options) {
        for (String name : options.providers()) {
            ProviderClasses.load(options.providersKey(), name);
        }
    }

    /**
     * The provider for a client; {@code accessKey} and {@code secretKey} both set or both null. Provider
     * classes are constructed here: a failure is an {@link IllegalArgumentException} naming key and class.
     */
    public static AwsCredentialsProvider provider(String accessKey, String secretKey, CredentialOptions options) {
        if (accessKey != null) {
            AwsCredentials keys = options.sessionToken() == null ? AwsBasicCredentials.create(accessKey, secretKey)
                    : AwsSessionCredentials.create(accessKey, secretKey, options.sessionToken());
            return StaticCredentialsProvider.create(keys);
        }
        if (!options.providers().isEmpty()) {
            List<AwsCredentialsProvider> providers = new ArrayList<>();
            List<AwsCredentialsProvider> owned = new ArrayList<>();
            for (String name : options.providers()) {
                ProviderClasses.Made made = ProviderClasses.instantiate(options.providersKey(), name);
                providers.add(made.provider());
                if (made.owned()) {
                    owned.add(made.provider());
                }
            }
            AwsCredentialsProviderChain chain = AwsCredentialsProviderChain.builder()
                    .credentialsProviders(providers).reuseLastProviderEnabled(true).build();
            return new Described(chain, options.providersKey() + " (" + String.join(", ", options.providers()) + ")",
                    List.copyOf(owned));
        }
        DefaultCredentialsProvider.Builder chain = DefaultCredentialsProvider.builder();
        if (options.profile() != null) {
            chain.profileName(options.profile());
        }
        DefaultCredentialsProvider defaults = chain.build();
        return new Described(defaults, "the access key and secret (unset), then the AWS SDK's default chain:"
                + " environment, system properties, web identity token file, profile '"
                + (options.profile() == null ? "default or $AWS_PROFILE" : options.profile())
                + "', container credentials, instance metadata", List.of(defaults));
    }

    /**
     * Closes what {@link #provider} made, if it holds anything (the SDK's default chain and the
     * container and instance-metadata providers keep refresh threads and HTTP clients; the SDK's S3 client
     * does not close a provider it was given). Static keys hold nothing.
     */
    public static void close(AwsCredentialsProvider provider) {
        if (provider instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // Closing frees threads and connections only; a failure there must not fail the store's close.
            }
        }
    }

    /**
     * A chain whose failure says, in one line, what it tried. Closing it closes the providers made for it
     * alone ({@code owned}, not those a static {@code create()} may share) that hold anything; the chain
     * itself is not closed (it would close every provider, shared ones too).
     */
    private record Described(AwsCredentialsProvider chain, String tried, List<AwsCredentialsProvider> owned,
                             java.util.concurrent.atomic.AtomicBoolean closed)
            implements AwsCredentialsProvider, software.amazon.awssdk.utils.SdkAutoCloseable {

        Described(AwsCredentialsProvider chain, String tried, List<AwsCredentialsProvider> owned) {
            this(chain, tried, owned, new java.util.concurrent.atomic.AtomicBoolean());
        }

        /** Once, however many times it is asked (the SDK's client may close a provider it was given too). */
        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                owned.forEach(S3Credentials::close);
            }
        }

        @Override
        public AwsCredentials resolveCredentials() {
            try {
                return chain.resolveCredentials();
            } catch (SdkClientException e) {
                throw SdkClientException.create(MISSING + ": tried " + tried + ": " + reasons(e.getMessage()));
            }
        }

        /**
         * Each provider's reason, from the SDK's message ("Unable to load credentials from any of the providers
         * in the chain AwsCredentialsProviderChain(credentialsProviders=[...]) : [reasons]"), on one line. The
         * reasons name settings and files, never values.
         */
        private static String reasons(String sdkMessage) {
            String m = String.valueOf(sdkMessage).replace('\n', ' ').replace('\r', ' ');
            int start = m.indexOf("]) : [");
            if (start >= 0 && m.endsWith("]")) {
                m = m.substring(start + "]) : [".length(), m.length() - 1);
            }
            return m.length() > 1000 ? m.substring(0, 1000) + "..." : m;
        }

        @Override
        public String toString() {
            return "S3Credentials[" + tried + "]";
        }
    }
}
