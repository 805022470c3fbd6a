package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import org.junit.jupiter.api.Test;

class KeystoneAuthRequestTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void acceptsTheThreeFormsOfAuthUrl() {
        URI tokens = URI.create("http://k:5000/v3/auth/tokens");
        assertThat(KeystoneAuthRequest.tokensUri(URI.create("http://k:5000"))).isEqualTo(tokens);
        assertThat(KeystoneAuthRequest.tokensUri(URI.create("http://k:5000/v3/"))).isEqualTo(tokens);
        assertThat(KeystoneAuthRequest.tokensUri(tokens)).isEqualTo(tokens);
    }

    @Test
    void passwordScopedToAProjectByNameOrId() throws Exception {
        KeystoneConfig byName = new KeystoneConfig("u", "Users", "pw", "p", "Projects", null, null, null, null, null,
                null);
        JsonNode auth = JSON.readTree(KeystoneAuthRequest.body(byName, true)).path("auth");
        assertThat(auth.at("/identity/methods/0").asText()).isEqualTo("password");
        assertThat(auth.at("/identity/password/user/name").asText()).isEqualTo("u");
        assertThat(auth.at("/identity/password/user/domain/name").asText()).isEqualTo("Users");
        assertThat(auth.at("/identity/password/user/password").asText()).isEqualTo("pw");
        assertThat(auth.at("/scope/project/name").asText()).isEqualTo("p");
        assertThat(auth.at("/scope/project/domain/name").asText()).isEqualTo("Projects");

        KeystoneConfig byId = new KeystoneConfig("u", "default", "pw", null, null, "0123", null, null, null, null,
                null);
        auth = JSON.readTree(KeystoneAuthRequest.body(byId, true)).path("auth");
        assertThat(auth.at("/scope/project/id").asText()).isEqualTo("0123");
        assertThat(auth.at("/scope/project/domain").isMissingNode()).isTrue();
        // "default" is the default domain's id; other values are names.
        assertThat(auth.at("/identity/password/user/domain/id").asText()).isEqualTo("default");

        assertThat(JSON.readTree(KeystoneAuthRequest.body(byName, false)).at("/auth/scope").isMissingNode()).isTrue();
    }

    @Test
    void applicationCredentialByIdOrByNameAndUser() throws Exception {
        JsonNode byId = JSON.readTree(KeystoneAuthRequest.body(KeystoneConfig.applicationCredential("ac1", "s3cr3t"), true));
        assertThat(byId.at("/auth/identity/methods/0").asText()).isEqualTo("application_credential");
        assertThat(byId.at("/auth/identity/application_credential/id").asText()).isEqualTo("ac1");
        assertThat(byId.at("/auth/identity/application_credential/secret").asText()).isEqualTo("s3cr3t");
        assertThat(byId.at("/auth/scope").isMissingNode()).isTrue();

        KeystoneConfig named = new KeystoneConfig("u", null, null, null, null, null, null, "ci", "s3cr3t", null, null);
        JsonNode byName = JSON.readTree(KeystoneAuthRequest.body(named, true));
        assertThat(byName.at("/auth/identity/application_credential/name").asText()).isEqualTo("ci");
        assertThat(byName.at("/auth/identity/application_credential/user/name").asText()).isEqualTo("u");
        assertThat(byName.at("/auth/identity/application_credential/user/domain/name").asText()).isEqualTo("Default");
    }

    @Test
    void settingsThatCannotAuthenticateAreRefusedWithoutShowingSecrets() {
        assertThatThrownBy(() -> KeystoneConfig.password("u", "pw", null))
                .hasMessageContaining("needs a project");
        assertThatThrownBy(() -> KeystoneConfig.applicationCredential("ac1", null))
                .hasMessageContaining("needs its secret");
        assertThatThrownBy(() -> new KeystoneConfig(null, null, null, null, null, null, null, "ci", "s", null, null))
                .hasMessageContaining("needs the user");
        assertThatThrownBy(() -> KeystoneConfig.password("u", "pw", "p").withEndpoint(null, "private"))
                .hasMessageContaining("public, internal or admin");
        assertThat(KeystoneConfig.password("u", "pw-secret", "p").toString()).doesNotContain("pw-secret")
                .contains("user u (domain Default)", "project p (domain Default)", "interface=public");
        assertThat(KeystoneConfig.applicationCredential("ac1", "ac-secret").toString()).doesNotContain("ac-secret");
    }
}
