package io.stork.store.swift;

/**
 * Keystone v3 settings of a Swift client, beside {@link SwiftStoreConfig} (whose {@code authUrl} is then
 * Keystone's, e.g. {@code https://keystone.example.com:5000/v3}). One of two methods:
 * <ul>
 *   <li>password: {@code user} (in {@code userDomain}) and {@code password}, scoped to {@code projectId}, or to
 *       {@code project} in {@code projectDomain} (a token without a project has no service catalog and no
 *       Swift account, so one is required);</li>
 *   <li>application credential: {@code applicationCredentialId}, or {@code applicationCredentialName} with
 *       {@code user} (in {@code userDomain}), and {@code applicationCredentialSecret}; the credential carries
 *       its own project, so no scope is given.</li>
 * </ul>
 * The object-store endpoint is taken from the token's catalog for {@code region} (null: any) and
 * {@code endpointInterface}, unless the Swift config gives a storage URL. {@link #toString()} shows no secret.
 */
public record KeystoneConfig(String user, String userDomain, String password, String project,
                             String projectDomain, String projectId, String applicationCredentialId,
                             String applicationCredentialName, String applicationCredentialSecret, String region,
                             String endpointInterface) {

    public static final String DEFAULT_DOMAIN = "Default";
    public static final String DEFAULT_INTERFACE = "public";

    public KeystoneConfig {
        userDomain = orDefault(userDomain, DEFAULT_DOMAIN);
        projectDomain = orDefault(projectDomain, DEFAULT_DOMAIN);
        endpointInterface = orDefault(endpointInterface, DEFAULT_INTERFACE).toLowerCase(java.util.Locale.ROOT);
        if (!endpointInterface.equals("public") && !endpointInterface.equals("internal")
                && !endpointInterface.equals("admin")) {
            throw new IllegalArgumentException("Keystone endpoint interface must be public, internal or admin, not '"
                    + endpointInterface + "'");
        }
        // Not usesApplicationCredential(): the fields are assigned only after this block.
        if (!blank(applicationCredentialId) || !blank(applicationCredentialName)) {
            if (blank(applicationCredentialSecret)) {
                throw new IllegalArgumentException("a Keystone application credential needs its secret");
            }
            if (blank(applicationCredentialId) && blank(user)) {
                throw new IllegalArgumentException(
                        "a Keystone application credential given by name needs the user it belongs to");
            }
        } else {
            if (blank(user) || password == null) {
                throw new IllegalArgumentException(
                        "Keystone needs a user and a password, or an application credential (id or name, and secret)");
            }
            if (blank(project) && blank(projectId)) {
                throw new IllegalArgumentException("Keystone password authentication needs a project (name or id)");
            }
        }
    }

    /** Password authentication scoped to a project by name. */
    public static KeystoneConfig password(String user, String password, String project) {
        return new KeystoneConfig(user, null, password, project, null, null, null, null, null, null, null);
    }

    /** Application-credential authentication by the credential's id. */
    public static KeystoneConfig applicationCredential(String id, String secret) {
        return new KeystoneConfig(null, null, null, null, null, null, id, null, secret, null, null);
    }

    public boolean usesApplicationCredential() {
        return !blank(applicationCredentialId) || !blank(applicationCredentialName);
    }

    public KeystoneConfig withEndpoint(String newRegion, String newInterface) {
        return new KeystoneConfig(user, userDomain, password, project, projectDomain, projectId,
                applicationCredentialId, applicationCredentialName, applicationCredentialSecret, newRegion,
                newInterface);
    }

    /** Who authenticates, for messages: never a secret. */
    String principal() {
        if (usesApplicationCredential()) {
            return "application credential " + (blank(applicationCredentialId)
                    ? "'" + applicationCredentialName + "' of user " + user : applicationCredentialId);
        }
        return "user " + user + " (domain " + userDomain + ")";
    }

    /** The project asked for, for messages. */
    String scope() {
        return blank(projectId) ? "project " + project + " (domain " + projectDomain + ")" : "project id " + projectId;
    }

    @Override
    public String toString() {
        return "KeystoneConfig[" + principal() + (usesApplicationCredential() ? "" : ", " + scope())
                + ", region=" + (region == null ? "any" : region) + ", interface=" + endpointInterface + "]";
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static String orDefault(String value, String defaultValue) {
        return blank(value) ? defaultValue : value.trim();
    }
}
