package io.stork.store.swift;

import io.stork.store.AuthenticationException;
import io.stork.store.OperationContext;
import io.stork.store.StoreDescription;
import io.stork.store.StoreException;
import io.stork.store.StoreStatistics;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * Keystone v3 authentication: one {@code POST /v3/auth/tokens} (password or application credential) for a
 * token, its expiry and the service catalog, where the object-store endpoint is looked up by region and
 * interface unless a storage URL is configured. The transport keeps the session until shortly before the
 * token expires ({@link KeystoneToken#refreshAt()}) or until Swift answers 401.
 *
 * <p>Keystone answers every refused password 401 with the same text, whether the password or the project
 * is wrong. To say which, a refused scoped request is followed by one unscoped request with the same
 * credentials (one more AUTH call, on failure only): if that succeeds, the project is the problem.
 */
final class KeystoneV3Authenticator implements SwiftAuthenticator {

    private final HttpClient http;
    private final SwiftStoreConfig config;
    private final KeystoneConfig keystone;
    private final StoreDescription description;
    private final StoreStatistics statistics;

    KeystoneV3Authenticator(HttpClient http, SwiftStoreConfig config, StoreDescription description,
                            StoreStatistics statistics) {
        this.http = http;
        this.config = config;
        this.keystone = java.util.Objects.requireNonNull(config.keystone(), "config.keystone");
        this.description = description;
        this.statistics = statistics;
    }

    @Override
    public SwiftSession authenticate() throws IOException {
        OperationContext context = new OperationContext("AUTH", description, null, null);
        HttpResponse<String> response = post(context, true);
        int status = response.statusCode();
        if (status == 401) {
            throw rejected(context);
        }
        if (status == 404 && keystone.usesApplicationCredential()) {
            throw new AuthenticationException(context, "Keystone does not know " + keystone.principal(), status, null);
        }
        if (status == 404) {
            throw new StoreException(context, "no Keystone v3 token service at "
                    + KeystoneAuthRequest.tokensUri(config.authUrl()), status, null);
        }
        if (status >= 300) {
            throw SwiftErrors.fromStatus(context, status, response.body(), false);
        }
        KeystoneToken token;
        try {
            token = KeystoneToken.parse(response.headers().firstValue("X-Subject-Token").orElse(null), response.body());
        } catch (IOException e) { // also Jackson's parse errors
            throw new StoreException(context, "unreadable Keystone answer: " + SwiftErrors.summary(e.getMessage()),
                    status, null);
        }
        return new SwiftSession(storageUrl(context, token), token.token(), token.refreshAt());
    }

    private URI storageUrl(OperationContext context, KeystoneToken token) throws StoreException {
        if (config.storageUrlOverride() != null) {
            return config.storageUrlOverride();
        }
        URI url = token.endpoint(keystone.region(), keystone.endpointInterface());
        if (url == null) {
            throw new StoreException(context, "no object-store endpoint with interface " + keystone.endpointInterface()
                    + (keystone.region() == null ? "" : " in region " + keystone.region())
                    + " in the token's catalog (" + token.describeObjectStores() + ")", 0, null);
        }
        return url;
    }

    /** Says what Keystone's uniform 401 meant; see the class comment. */
    private AuthenticationException rejected(OperationContext context) throws IOException {
        if (keystone.usesApplicationCredential()) {
            return new AuthenticationException(context, "Keystone rejected " + keystone.principal()
                    + ": it has expired or been revoked, or the secret does not match", 401, null);
        }
        int unscoped = post(context, false).statusCode();
        if (unscoped < 300) {
            return new AuthenticationException(context, "Keystone refused " + keystone.scope() + " to "
                    + keystone.principal() + ": no such project, or the user has no role on it", 401, null);
        }
        return new AuthenticationException(context, "Keystone rejected the password of " + keystone.principal()
                + " (wrong password, or no such user)", 401, null);
    }

    private HttpResponse<String> post(OperationContext context, boolean scoped) throws IOException {
        byte[] body = KeystoneAuthRequest.body(keystone, scoped).getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(KeystoneAuthRequest.tokensUri(config.authUrl()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .timeout(config.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .build();
        return AuthCall.send(http, request, body.length, context, statistics);
    }
}
