package io.stork.store.s3.credentials;

import java.util.List;
import java.util.Objects;

/**
 * How an S3 client finds credentials besides the explicit access key and secret (which stay in
 * {@link io.stork.store.s3.S3StoreConfig}): the order is documented in docs/stores/aws-s3.md and applied by
 * {@link S3Credentials}. {@link #toString()} never shows the session token.
 *
 * @param sessionToken  the session token of temporary keys, sent with the explicit keys; null: none
 * @param providers     class names of credential providers, tried in order when no explicit keys are set;
 *                      empty: the SDK's default chain
 * @param providersKey  the key {@code providers} came from, as users write it: messages name it
 * @param profile       the profile the default chain reads from the AWS files; null: the SDK's choice
 *                      ({@code AWS_PROFILE}, {@code aws.profile}, else {@code default})
 */
public record CredentialOptions(String sessionToken, List<String> providers, String providersKey, String profile) {

    public static final String DEFAULT_PROVIDERS_KEY = "fs.stork.s3.credentials.provider";

    /** No session token, no provider classes, the SDK's profile. */
    public static final CredentialOptions NONE = new CredentialOptions(null, List.of(), DEFAULT_PROVIDERS_KEY, null);

    public CredentialOptions {
        sessionToken = sessionToken == null || sessionToken.isBlank() ? null : sessionToken;
        providers = Objects.requireNonNull(providers, "providers").stream().map(String::trim)
                .filter(n -> !n.isEmpty()).toList();
        providersKey = providersKey == null ? DEFAULT_PROVIDERS_KEY : providersKey;
        profile = profile == null || profile.isBlank() ? null : profile.trim();
    }

    /** Provider class names from a comma-separated list (blanks and surrounding spaces dropped). */
    public static List<String> parseProviders(String list) {
        if (list == null) {
            return List.of();
        }
        return new CredentialOptions(null, java.util.Arrays.asList(list.split(",")), null, null).providers();
    }

    public CredentialOptions withSessionToken(String token) {
        return new CredentialOptions(token, providers, providersKey, profile);
    }

    public CredentialOptions withProviders(List<String> classNames) {
        return new CredentialOptions(sessionToken, classNames, providersKey, profile);
    }

    public CredentialOptions withProfile(String name) {
        return new CredentialOptions(sessionToken, providers, providersKey, name);
    }

    @Override
    public String toString() {
        return "CredentialOptions[sessionToken=" + (sessionToken == null ? "(none)" : "****")
                + ", providers=" + providers + ", profile=" + (profile == null ? "(SDK default)" : profile) + "]";
    }
}
