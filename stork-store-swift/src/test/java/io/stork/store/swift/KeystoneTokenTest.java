package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeystoneTokenTest {

    /** A real Keystone 22 answer to an application credential, with a second region's endpoint added. */
    static String fixture() throws IOException {
        try (InputStream in = KeystoneTokenTest.class.getResourceAsStream("/keystone/token-application-credential.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsExpiryAndTheObjectStoreEndpointsOfTheCatalog() throws IOException {
        KeystoneToken token = KeystoneToken.parse("gAAAA-token", fixture());

        assertThat(token.token()).isEqualTo("gAAAA-token");
        assertThat(token.expiresAt()).isEqualTo(Instant.parse("2026-11-26T07:50:42Z"));
        assertThat(token.issuedAt()).isEqualTo(Instant.parse("2026-11-26T06:50:42Z"));
        // The identity service's endpoints are not object stores.
        assertThat(token.objectStores()).hasSize(3);
        assertThat(token.toString()).doesNotContain("gAAAA");
    }

    @Test
    void findsTheEndpointByInterfaceAndRegion() throws IOException {
        KeystoneToken token = KeystoneToken.parse("t", fixture());
        String account = "/v1/AUTH_d1b8ba365ab446668475256a3e4de9b6";

        assertThat(token.endpoint("RegionOne", "public")).isEqualTo(URI.create("http://127.0.0.1:36509" + account));
        assertThat(token.endpoint("RegionOne", "internal")).isEqualTo(URI.create("http://localhost:36509" + account));
        assertThat(token.endpoint("RegionTwo", "public")).isEqualTo(URI.create("https://swift.two.example" + account));
        assertThat(token.endpoint(null, "internal")).isEqualTo(URI.create("http://localhost:36509" + account));
        assertThat(token.endpoint("RegionTwo", "internal")).isNull();
        assertThat(token.endpoint("RegionThree", "public")).isNull();
        assertThat(token.describeObjectStores())
                .isEqualTo("the catalog's object-store endpoints: public in RegionOne, internal in RegionOne, public in RegionTwo");
    }

    @Test
    void aTokenWithoutCatalogSaysSo() throws IOException {
        KeystoneToken token = KeystoneToken.parse("t",
                "{\"token\":{\"expires_at\":\"2030-01-01T00:00:00.000000Z\",\"catalog\":[]}}");
        assertThat(token.endpoint(null, "public")).isNull();
        assertThat(token.describeObjectStores()).isEqualTo("the catalog has no object-store service");
    }

    @Test
    void refreshesFiveMinutesBeforeExpiryOrAQuarterOfAShortLifetimeBefore() {
        Instant issued = Instant.parse("2030-01-01T00:00:00Z");
        KeystoneToken hour = new KeystoneToken("t", issued, issued.plus(Duration.ofHours(1)), List.of());
        KeystoneToken minute = new KeystoneToken("t", issued, issued.plus(Duration.ofSeconds(60)), List.of());
        KeystoneToken unknownIssue = new KeystoneToken("t", null, issued.plus(Duration.ofHours(1)), List.of());

        assertThat(hour.refreshAt()).isEqualTo(issued.plus(Duration.ofMinutes(55)));
        assertThat(minute.refreshAt()).isEqualTo(issued.plus(Duration.ofSeconds(45)));
        assertThat(unknownIssue.refreshAt()).isEqualTo(issued.plus(Duration.ofMinutes(55)));
    }

    @Test
    void aSessionIsDueAtItsRefreshTimeAndATempauthSessionNever() {
        Instant at = Instant.parse("2030-01-01T00:55:00Z");
        SwiftSession keystone = new SwiftSession(URI.create("http://s/v1/AUTH_p"), "t", at);

        assertThat(keystone.due(at.minusMillis(1))).isFalse();
        assertThat(keystone.due(at)).isTrue();
        assertThat(new SwiftSession(URI.create("http://s/v1/AUTH_p"), "t").due(Instant.MAX)).isFalse();
    }

    @Test
    void anAnswerThatIsNotAV3TokenIsAnError() {
        assertThatThrownBy(() -> KeystoneToken.parse("t", "{\"access\":{}}"))
                .isInstanceOf(IOException.class).hasMessageContaining("not a Keystone v3 token");
        assertThatThrownBy(() -> KeystoneToken.parse(null, fixture()))
                .isInstanceOf(IOException.class).hasMessageContaining("X-Subject-Token");
    }
}
