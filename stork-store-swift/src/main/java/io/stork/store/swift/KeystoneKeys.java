package io.stork.store.swift;

import io.stork.store.StoreSettings;
import java.io.IOException;

/**
 * The Keystone v3 keys of a bucket ({@code fs.stork.bucket.<b>.swift.*}, or {@code fs.stork.swift.*}),
 * read by {@link SwiftStoreProvider} when {@code swift.auth.version} is 3. Both secrets are read through the
 * credential providers, and are named so that Hadoop's and Spark's default redaction hide them
 * ({@code password$}, {@code secret$}).
 */
final class KeystoneKeys {

    static final String USER_DOMAIN = "swift.user.domain";
    static final String PROJECT = "swift.project";
    static final String PROJECT_DOMAIN = "swift.project.domain";
    static final String PROJECT_ID = "swift.project.id";
    static final String APPLICATION_CREDENTIAL_ID = "swift.application.credential.id";
    static final String APPLICATION_CREDENTIAL_NAME = "swift.application.credential.name";
    static final String APPLICATION_CREDENTIAL_SECRET = "swift.application.credential.secret";
    static final String REGION = "swift.region";
    static final String INTERFACE = "swift.interface";

    private KeystoneKeys() {
    }

    /** The settings, or a failure naming the keys to set; the user and password keys are the tempauth ones. */
    static KeystoneConfig read(StoreSettings s) throws IOException {
        String credentialId = s.get(APPLICATION_CREDENTIAL_ID, null);
        String credentialName = s.get(APPLICATION_CREDENTIAL_NAME, null);
        boolean applicationCredential = credentialId != null || credentialName != null;
        String user = s.get(SwiftStoreProvider.USER, null);
        String password = applicationCredential ? null : s.secret(SwiftStoreProvider.PASSWORD);
        String secret = applicationCredential ? s.secret(APPLICATION_CREDENTIAL_SECRET) : null;
        try {
            return new KeystoneConfig(user, s.get(USER_DOMAIN, null), password, s.get(PROJECT, null),
                    s.get(PROJECT_DOMAIN, null), s.get(PROJECT_ID, null), credentialId, credentialName, secret,
                    s.get(REGION, null), s.get(INTERFACE, null));
        } catch (IllegalArgumentException e) {
            throw s.invalid(e.getMessage() + " (Keystone v3: set " + s.name(SwiftStoreProvider.USER) + " and "
                    + s.name(SwiftStoreProvider.PASSWORD) + " with " + s.name(PROJECT) + " or " + s.name(PROJECT_ID)
                    + "; or " + s.name(APPLICATION_CREDENTIAL_ID) + " and " + s.name(APPLICATION_CREDENTIAL_SECRET) + ")");
        }
    }
}
