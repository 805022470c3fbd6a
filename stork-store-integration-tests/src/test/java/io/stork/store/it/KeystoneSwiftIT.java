package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stork.localstore.LocalKeystone;
import io.stork.localstore.StoreCallCounts;
import io.stork.store.AuthenticationException;
import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreException;
import io.stork.store.StoreIterator;
import io.stork.store.swift.KeystoneConfig;
import io.stork.store.swift.SwiftObjectStore;
import io.stork.store.swift.SwiftStoreConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Swift with Keystone v3 against the real Keystone and the Keystone-enabled Swift proxy that
 * scripts/local-store.sh runs beside the store: both methods, token reuse counted at Keystone and at the
 * proxy, re-authentication after Keystone revoked the token, and the one-line errors. Skipped (with the
 * reason) only when Keystone's packages cannot be installed.
 */
class KeystoneSwiftIT {

    private static LocalKeystone keystone;

    @BeforeAll
    static void keystone() {
        keystone = LocalKeystone.shared();
        assumeTrue(keystone.available(), keystone.unavailableReason());
    }

    private static SwiftStoreConfig config(KeystoneConfig settings) {
        return SwiftStoreConfig.of(keystone.url(), "unused", "unused").withKeystone(settings);
    }

    private static KeystoneConfig password() {
        return new KeystoneConfig(keystone.user(), "Default", keystone.password(), keystone.project(), "Default",
                null, null, null, null, keystone.region(), "public");
    }

    /** Write, read, list and delete in a new container: 6 Swift calls. */
    private static void roundTrip(ObjectStore store, String purpose) throws IOException {
        String bucket = TestStores.uniqueBucket(purpose);
        ObjectKey key = ObjectKey.of(bucket, "dir/a.txt");
        store.createBucket(bucket);
        store.put(key, PutBody.of("hello keystone".getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());
        try (var in = store.get(key, ByteRange.all())) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello keystone");
        }
        List<String> listed = new ArrayList<>();
        StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, "dir/"));
        while (it.hasNext()) {
            listed.add(it.next().name());
        }
        assertThat(listed).containsExactly("dir/a.txt");
        store.delete(key);
        store.deleteBucket(bucket);
    }

    @Test
    void passwordAuthUsesOneTokenForAllCallsCountedAtKeystoneAndAtTheProxy() throws IOException {
        try (ObjectStore store = new SwiftObjectStore(config(password()))) {
            long tokensBefore = keystone.tokenRequests();
            var window = keystone.accessLog().openWindow();
            roundTrip(store, "ks-password");
            roundTrip(store, "ks-password");
            StoreCallCounts atProxy = window.counts();
            StatisticsSnapshot client = store.statistics().snapshot();

            assertThat(client.calls(CallType.AUTH)).isEqualTo(1);
            assertThat(keystone.tokenRequests() - tokensBefore).as("token requests at Keystone").isEqualTo(1);
            // The proxy sees every Swift call and none of the token calls (they go to Keystone).
            assertThat(atProxy.total()).isEqualTo(client.totalCalls() - 1).isEqualTo(12);
        }
    }

    @Test
    void applicationCredentialByIdAndByNameWithTheInternalEndpoint() throws IOException {
        try (ObjectStore store = new SwiftObjectStore(config(KeystoneConfig.applicationCredential(
                keystone.applicationCredentialId(), keystone.applicationCredentialSecret())))) {
            roundTrip(store, "ks-appcred");
            assertThat(store.statistics().snapshot().calls(CallType.AUTH)).isEqualTo(1);
        }
        KeystoneConfig byName = new KeystoneConfig(keystone.user(), null, null, null, null, null, null,
                keystone.applicationCredentialName(), keystone.applicationCredentialSecret(), keystone.region(),
                "internal");
        try (ObjectStore store = new SwiftObjectStore(config(byName))) {
            roundTrip(store, "ks-appcred-name");
        }
    }

    @Test
    void aTokenKeystoneRevokedIsReplacedOnceAndTheCallRetried() throws IOException {
        try (ObjectStore store = new SwiftObjectStore(config(password()))) {
            String bucket = TestStores.uniqueBucket("ks-revoke");
            store.createBucket(bucket);
            keystone.revokeUserTokens();

            long tokensBefore = keystone.tokenRequests();
            ObjectKey key = ObjectKey.of(bucket, "after-revocation");
            store.put(key, PutBody.of(new byte[] {1, 2, 3}), PutOptions.defaults());
            assertThat(store.head(key).length()).isEqualTo(3);

            StatisticsSnapshot client = store.statistics().snapshot();
            assertThat(client.calls(CallType.AUTH)).isEqualTo(2);
            assertThat(client.failures().getOrDefault(CallType.PUT, 0L)).as("the PUT refused with 401").isEqualTo(1);
            assertThat(keystone.tokenRequests() - tokensBefore).isEqualTo(1);
            store.delete(key);
            store.deleteBucket(bucket);
        }
    }

    private static void assertFails(KeystoneConfig settings, String... parts) {
        assertThatThrownBy(() -> {
            try (ObjectStore store = new SwiftObjectStore(config(settings))) {
                store.createBucket(TestStores.uniqueBucket("ks-error"));
            }
        }).isInstanceOf(StoreException.class)
                .hasMessageContainingAll(parts)
                .satisfies(e -> assertThat(e.getMessage())
                        .doesNotContain("\n")
                        .doesNotContain(keystone.password())
                        .doesNotContain(keystone.applicationCredentialSecret())
                        .doesNotContain(keystone.expiredApplicationCredentialSecret()));
    }

    @Test
    void eachFailureIsOneLineThatSaysWhatIsWrong() {
        assertFails(new KeystoneConfig(keystone.user(), null, "not-the-password", keystone.project(), null, null,
                null, null, null, null, null), "Keystone rejected the password of user stork (domain Default)");
        assertFails(new KeystoneConfig(keystone.user(), null, keystone.password(), "no-such-project", null, null,
                null, null, null, null, null), "Keystone refused project no-such-project (domain Default)",
                "no such project, or the user has no role on it");
        assertFails(password().withEndpoint("RegionX", "internal"),
                "no object-store endpoint with interface internal in region RegionX",
                "public in " + keystone.region());
        assertFails(KeystoneConfig.applicationCredential(keystone.expiredApplicationCredentialId(),
                keystone.expiredApplicationCredentialSecret()),
                "Keystone rejected application credential " + keystone.expiredApplicationCredentialId(),
                "expired or been revoked");
        assertFails(KeystoneConfig.applicationCredential("0123456789abcdef", keystone.applicationCredentialSecret()),
                "Keystone does not know application credential 0123456789abcdef");
        assertThatThrownBy(() -> {
            try (ObjectStore store = new SwiftObjectStore(config(KeystoneConfig.applicationCredential(
                    keystone.expiredApplicationCredentialId(), keystone.expiredApplicationCredentialSecret())))) {
                store.createBucket(TestStores.uniqueBucket("ks-error"));
            }
        }).isInstanceOf(AuthenticationException.class);
    }
}
