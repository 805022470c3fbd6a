package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.swift.KeystoneConfig;
import io.stork.store.swift.SwiftStoreConfig;
import io.stork.store.swift.SwiftStoreProvider;
import java.net.URI;
import java.nio.file.Files;
import org.apache.hadoop.conf.ConfigRedactor;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.junit.jupiter.api.Test;

/** The Keystone keys as the file system passes them to the Swift provider: per bucket, secrets redacted. */
class SwiftKeystoneKeysTest {

    private static final String B = "fs.stork.bucket.data.";

    private static SwiftStoreConfig read(Configuration conf) throws Exception {
        return (SwiftStoreConfig) new SwiftStoreProvider().config(new StorkConfig(conf, "data"));
    }

    private static Configuration keystone() {
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.api", "swift");
        conf.set(B + "swift.auth.version", "3");
        conf.set(B + "swift.auth.url", "https://keystone.example:5000/v3");
        return conf;
    }

    @Test
    void passwordScopedToAProjectWithRegionInterfaceAndEndpoint() throws Exception {
        Configuration conf = keystone();
        conf.set(B + "swift.user", "etl");
        conf.set(B + "swift.user.domain", "Users");
        conf.set(B + "swift.password", "pw");
        conf.set("fs.stork.swift.project", "analytics"); // global keys apply to every bucket
        conf.set(B + "swift.project.domain", "Projects");
        conf.set(B + "swift.region", "RegionTwo");
        conf.set(B + "swift.interface", "internal");
        conf.set(B + "swift.endpoint", "https://swift.example/v1/AUTH_abc");

        SwiftStoreConfig config = read(conf);
        assertThat(config.keystone()).isEqualTo(new KeystoneConfig("etl", "Users", "pw", "analytics", "Projects", null,
                null, null, null, "RegionTwo", "internal"));
        assertThat(config.storageUrlOverride()).isEqualTo(URI.create("https://swift.example/v1/AUTH_abc"));
        assertThat(config.toString()).doesNotContain("pw,").contains("Keystone v3");
    }

    @Test
    void applicationCredentialSecretFromACredentialProvider() throws Exception {
        Configuration conf = keystone();
        conf.set(B + "swift.application.credential.id", "ac1");
        String provider = "jceks://file" + Files.createTempDirectory("stork-ks").resolve("creds.jceks");
        conf.set("hadoop.security.credential.provider.path", provider);
        var credentials = CredentialProviderFactory.getProviders(conf).get(0);
        credentials.createCredentialEntry(B + "swift.application.credential.secret", "from-provider".toCharArray());
        credentials.flush();

        KeystoneConfig keystone = read(conf).keystone();
        assertThat(keystone.applicationCredentialId()).isEqualTo("ac1");
        assertThat(keystone.applicationCredentialSecret()).isEqualTo("from-provider");
        assertThat(keystone.endpointInterface()).isEqualTo("public");
        assertThat(keystone.userDomain()).isEqualTo("Default");
    }

    @Test
    void tempauthStaysTheDefaultAndOtherVersionsAreRefused() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(B + "swift.auth.url", "http://127.0.0.1:8080/auth/v1.0");
        conf.set(B + "swift.user", "test:tester");
        conf.set(B + "swift.password", "testing");
        assertThat(read(conf).keystone()).isNull();

        conf.set(B + "swift.endpoint", "swift.example/v1/AUTH_x");
        assertThatThrownBy(() -> read(conf)).hasMessageContaining("swift.endpoint must be an http(s) storage URL");
        conf.unset(B + "swift.endpoint");
        conf.set(B + "swift.auth.version", "2");
        assertThatThrownBy(() -> read(conf)).hasMessageContaining("must be 1 (tempauth) or 3 (Keystone v3), not '2'");
    }

    @Test
    void incompleteKeystoneSettingsNameTheKeysToSet() {
        Configuration conf = keystone();
        conf.set(B + "swift.user", "etl");
        conf.set(B + "swift.password", "pw");
        assertThatThrownBy(() -> read(conf))
                .hasMessageContaining("needs a project")
                .hasMessageContaining("fs.stork.swift.project")
                .hasMessageNotContaining("pw");
    }

    @Test
    void hadoopRedactsBothSecrets() {
        ConfigRedactor redactor = new ConfigRedactor(new Configuration());
        for (String key : new String[] {B + "swift.password", B + "swift.application.credential.secret",
                "fs.stork.swift.application.credential.secret"}) {
            assertThat(redactor.redact(key, "s3cr3t")).as(key).isNotEqualTo("s3cr3t");
        }
    }
}
