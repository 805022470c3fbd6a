package io.stork.localstore;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;

/**
 * Keystone v3 and its Swift proxy beside the local store ({@code scripts/local-store.sh keystone-start},
 * which appends {@code STORK_KEYSTONE_*} lines to store.env). {@link #shared()} starts them if they are not
 * running; when their packages cannot be installed it returns an instance that is not {@link #available()}
 * and says why, so tests skip with that reason (any other failure is an error).
 */
public final class LocalKeystone {

    /** The script's exit status when the Keystone packages cannot be installed. */
    static final int UNAVAILABLE = 75;

    private static LocalKeystone shared;

    private final Map<String, String> env;
    private final String unavailableReason;

    private LocalKeystone(Map<String, String> env, String unavailableReason) {
        this.env = env;
        this.unavailableReason = unavailableReason;
    }

    public static synchronized LocalKeystone shared() {
        if (shared == null) {
            LocalStore store = LocalStore.shared();
            Path envFile = LocalStore.envFile(store.repositoryRoot());
            Map<String, String> env = LocalStore.readEnv(envFile);
            if (!env.containsKey("STORK_KEYSTONE_URL") || !answers(URI.create(env.get("STORK_KEYSTONE_URL")))) {
                int exit = LocalStore.script(store.repositoryRoot(), "keystone-start");
                if (exit == UNAVAILABLE) {
                    return shared = new LocalKeystone(Map.of(), "Keystone cannot be installed on this machine"
                            + " (scripts/local-store.sh keystone-start: python3-keystone, python3-keystonemiddleware)");
                }
                if (exit != 0) {
                    throw new IllegalStateException("scripts/local-store.sh keystone-start failed with exit code " + exit);
                }
                env = LocalStore.readEnv(envFile);
            }
            shared = new LocalKeystone(env, null);
        }
        return shared;
    }

    private static boolean answers(URI url) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public boolean available() {
        return unavailableReason == null;
    }

    /** Why Keystone is not available; null when it is. */
    public String unavailableReason() {
        return unavailableReason;
    }

    private String get(String name) {
        String value = env.get(name);
        if (value == null) {
            throw new IllegalStateException(name + " missing from the local store's store.env"
                    + (unavailableReason == null ? "" : ": " + unavailableReason));
        }
        return value;
    }

    /** The v3 root, e.g. {@code http://127.0.0.1:5000/v3}. */
    public URI url() {
        return URI.create(get("STORK_KEYSTONE_URL"));
    }

    public String region() {
        return get("STORK_KEYSTONE_REGION");
    }

    public String user() {
        return get("STORK_KEYSTONE_USER");
    }

    public String userId() {
        return get("STORK_KEYSTONE_USER_ID");
    }

    public String password() {
        return get("STORK_KEYSTONE_PASSWORD");
    }

    public String project() {
        return get("STORK_KEYSTONE_PROJECT");
    }

    public String projectId() {
        return get("STORK_KEYSTONE_PROJECT_ID");
    }

    public String memberRoleId() {
        return get("STORK_KEYSTONE_MEMBER_ROLE_ID");
    }

    public String adminPassword() {
        return get("STORK_KEYSTONE_ADMIN_PASSWORD");
    }

    public String applicationCredentialId() {
        return get("STORK_KEYSTONE_APP_CREDENTIAL_ID");
    }

    public String applicationCredentialName() {
        return get("STORK_KEYSTONE_APP_CREDENTIAL_NAME");
    }

    public String applicationCredentialSecret() {
        return get("STORK_KEYSTONE_APP_CREDENTIAL_SECRET");
    }

    /** An application credential of the user that expired seconds after it was made. */
    public String expiredApplicationCredentialId() {
        return get("STORK_KEYSTONE_EXPIRED_APP_CREDENTIAL_ID");
    }

    public String expiredApplicationCredentialSecret() {
        return get("STORK_KEYSTONE_EXPIRED_APP_CREDENTIAL_SECRET");
    }

    /** The Keystone-enabled Swift proxy (the catalog's public endpoint; the internal one names it localhost). */
    public URI swiftUrl() {
        return URI.create(get("STORK_KEYSTONE_SWIFT_URL"));
    }

    /** How long the proxy trusts a token it validated before asking Keystone again. */
    public Duration proxyTokenCache() {
        return Duration.ofSeconds(Long.parseLong(get("STORK_KEYSTONE_PROXY_TOKEN_CACHE_SECONDS")));
    }

    /** The Keystone proxy's access log, counted like the store's. */
    public AccessLog accessLog() {
        return new AccessLog(Paths.get(get("STORK_KEYSTONE_ACCESS_LOG")), swiftUrl());
    }

    /**
     * Makes Keystone refuse every token of the test user issued so far, as an operator's revocation would:
     * disables and re-enables the user (each emits a revocation event; removing a role does not revoke a
     * token that is still valid once the role is back). Waits until the proxy's token cache has forgotten
     * them, and past the second in which the event was made (Keystone compares issue times in seconds, so a
     * token issued in that second would be refused too).
     */
    public void revokeUserTokens() throws IOException {
        String admin = adminToken();
        for (boolean enabled : new boolean[] {false, true}) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url() + "/users/" + userId()))
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"user\":{\"enabled\":" + enabled + "}}"))
                    .header("Content-Type", "application/json").header("X-Auth-Token", admin));
            if (r.statusCode() != 200) {
                throw new IOException("Keystone: enabling=" + enabled + " user " + userId() + " gave " + r.statusCode());
            }
        }
        try {
            Thread.sleep(proxyTokenCache().plusMillis(1500).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
        }
    }

    private String adminToken() throws IOException {
        // Generated passwords are URL-safe base64: nothing to escape in JSON.
        String body = "{\"auth\":{\"identity\":{\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"admin\","
                + "\"domain\":{\"id\":\"default\"},\"password\":\"" + adminPassword() + "\"}}},"
                + "\"scope\":{\"project\":{\"name\":\"admin\",\"domain\":{\"id\":\"default\"}}}}}";
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url() + "/auth/tokens"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json"));
        return r.headers().firstValue("X-Subject-Token")
                .orElseThrow(() -> new IOException("Keystone: no admin token (" + r.statusCode() + ")"));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return HttpClient.newHttpClient().send(request.timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
        }
    }

    /**
     * Keystone's requests for tokens ({@code POST /v3/auth/tokens}) logged so far, by anybody. Keystone logs a
     * request after it has sent the answer, so a client may be on to its next call before the line is
     * written: the count is taken once the log has been still for a moment.
     */
    public long tokenRequests() throws IOException {
        long count = countTokenRequests();
        for (int i = 0; i < 50; i++) {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
            long again = countTokenRequests();
            if (again == count) {
                return count;
            }
            count = again;
        }
        return count;
    }

    private long countTokenRequests() throws IOException {
        try (var lines = Files.lines(Paths.get(get("STORK_KEYSTONE_LOG")))) {
            return lines.filter(l -> l.contains("\"POST /v3/auth/tokens ")).count();
        }
    }
}
