package io.stork.store.swift;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;

/** The body and address of a Keystone v3 {@code POST /v3/auth/tokens}. The body holds a secret: never log it. */
final class KeystoneAuthRequest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private KeystoneAuthRequest() {
    }

    /**
     * The token URL for a configured auth URL, which operators write in three forms: Keystone's root
     * ({@code http://host:5000}), the v3 root ({@code .../v3}, as in clouds.yaml) or the token resource
     * itself ({@code .../v3/auth/tokens}, as Stocator's {@code auth.url}).
     */
    static URI tokensUri(URI authUrl) {
        String url = authUrl.toString().replaceAll("/+$", "");
        if (url.endsWith("/auth/tokens")) {
            return URI.create(url);
        }
        return URI.create(url.endsWith("/v3") ? url + "/auth/tokens" : url + "/v3/auth/tokens");
    }

    /**
     * The request for {@code config}'s method; {@code scoped} false leaves the project scope out (the probe that
     * tells a wrong password from an unknown project).
     */
    static String body(KeystoneConfig config, boolean scoped) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode auth = root.putObject("auth");
        ObjectNode identity = auth.putObject("identity");
        if (config.usesApplicationCredential()) {
            identity.putArray("methods").add("application_credential");
            ObjectNode credential = identity.putObject("application_credential");
            if (!KeystoneConfig.blank(config.applicationCredentialId())) {
                credential.put("id", config.applicationCredentialId());
            } else {
                credential.put("name", config.applicationCredentialName());
                user(credential, config);
            }
            credential.put("secret", config.applicationCredentialSecret());
            // An application credential is bound to its project: Keystone refuses another scope.
            return root.toString();
        }
        identity.putArray("methods").add("password");
        user(identity.putObject("password"), config).put("password", config.password());
        if (scoped) {
            ObjectNode project = auth.putObject("scope").putObject("project");
            if (!KeystoneConfig.blank(config.projectId())) {
                project.put("id", config.projectId());
            } else {
                project.put("name", config.project());
                domain(project, config.projectDomain());
            }
        }
        return root.toString();
    }

    private static ObjectNode user(ObjectNode parent, KeystoneConfig config) {
        ObjectNode user = parent.putObject("user");
        user.put("name", config.user());
        domain(user, config.userDomain());
        return user;
    }

    /**
     * A domain by name, except {@code default}: the id of Keystone's default domain (named {@code Default}),
     * which clouds.yaml files give as {@code user_domain_id: default}.
     */
    private static void domain(ObjectNode parent, String domain) {
        parent.putObject("domain").put(domain.equals("default") ? "id" : "name", domain);
    }
}
