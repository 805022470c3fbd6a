package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.stork.store.AuthenticationException;
import io.stork.store.CallType;
import io.stork.store.StoreApi;
import io.stork.store.StoreDescription;
import io.stork.store.StoreException;
import io.stork.store.StoreStatistics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The authenticator against a stand-in for Keystone's token API: what each answer becomes. */
class KeystoneV3AuthenticatorTest {

    private static final String SECRET = "do-not-show-me";

    private HttpServer server;
    private final List<String> requests = new ArrayList<>();
    private final StoreStatistics statistics = StoreStatistics.forClient();

    /** Answers each POST with the status the function gives for its body (201: the fixture token). */
    private URI keystone(Function<String, Integer> status) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String token = KeystoneTokenTest.fixture();
        server.createContext("/v3/auth/tokens", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(body);
            int code = status.apply(body);
            if (code == 0) { // hang up without an answer, as a server closing a kept-alive connection
                exchange.close();
                return;
            }
            byte[] answer = (code == 201 ? token : "{\"error\":{\"code\":" + code + "}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("X-Subject-Token", "gAAAA-subject");
            exchange.sendResponseHeaders(code, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v3");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private SwiftSession authenticate(URI url, KeystoneConfig keystone) throws IOException {
        SwiftStoreConfig config = SwiftStoreConfig.of(url, "unused", "unused").withKeystone(keystone);
        return new KeystoneV3Authenticator(HttpClient.newHttpClient(), config,
                new StoreDescription(StoreApi.SWIFT, url.toString()), statistics).authenticate();
    }

    private long authCalls() {
        return statistics.snapshot().calls(CallType.AUTH);
    }

    @Test
    void aTokenGivesTheCatalogsEndpointAndTheTimeToRefresh() throws IOException {
        URI url = keystone(body -> 201);
        SwiftSession session = authenticate(url, KeystoneConfig.password("stork", SECRET, "stork")
                .withEndpoint("RegionOne", "internal"));

        assertThat(session.token()).isEqualTo("gAAAA-subject");
        assertThat(session.storageUrl()).isEqualTo(URI.create("http://localhost:36509/v1/AUTH_d1b8ba365ab446668475256a3e4de9b6"));
        assertThat(session.refreshAt()).isEqualTo(java.time.Instant.parse("2026-11-26T07:45:42Z"));
        assertThat(authCalls()).isEqualTo(1);
    }

    @Test
    void aConnectionBrokenBeforeTheAnswerIsTriedOnceMore() throws IOException {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        URI url = keystone(body -> calls.incrementAndGet() == 1 ? 0 : 201);
        SwiftSession session = authenticate(url, KeystoneConfig.applicationCredential("ac1", SECRET));
        assertThat(session.token()).isEqualTo("gAAAA-subject");
        assertThat(authCalls()).isEqualTo(2);
        assertThat(statistics.snapshot().failures().get(CallType.AUTH)).isEqualTo(1);
    }

    @Test
    void aMissingEndpointNamesWhatWasAskedAndWhatTheCatalogHas() throws IOException {
        URI url = keystone(body -> 201);
        assertThatThrownBy(() -> authenticate(url, KeystoneConfig.password("stork", SECRET, "stork")
                .withEndpoint("RegionThree", "internal")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("no object-store endpoint with interface internal in region RegionThree")
                .hasMessageContaining("public in RegionOne, internal in RegionOne, public in RegionTwo");
    }

    @Test
    void aWrongPasswordIsToldFromAnUnknownProject() throws IOException {
        URI url = keystone(body -> 401);
        assertThatThrownBy(() -> authenticate(url, KeystoneConfig.password("stork", SECRET, "stork")))
                .isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("Keystone rejected the password of user stork (domain Default)")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET).doesNotContain("\n"));
        // The scoped request, then the unscoped probe.
        assertThat(requests).hasSize(2);
        assertThat(authCalls()).isEqualTo(2);
    }

    @Test
    void anUnknownProjectIsNamed() throws IOException {
        URI url = keystone(body -> body.contains("\"scope\"") ? 401 : 201);
        assertThatThrownBy(() -> authenticate(url, KeystoneConfig.password("stork", SECRET, "nope")))
                .isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("Keystone refused project nope (domain Default) to user stork (domain Default)")
                .hasMessageContaining("no such project, or the user has no role on it");
    }

    @Test
    void aRejectedOrUnknownApplicationCredential() throws IOException {
        URI url = keystone(body -> body.contains("\"gone\"") ? 404 : 401);
        assertThatThrownBy(() -> authenticate(url, KeystoneConfig.applicationCredential("ac1", SECRET)))
                .isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("Keystone rejected application credential ac1: it has expired or been revoked")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
        assertThatThrownBy(() -> authenticate(url, KeystoneConfig.applicationCredential("gone", SECRET)))
                .isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("Keystone does not know application credential gone");
        // No probe for application credentials: one call each.
        assertThat(requests).hasSize(2);
    }

    @Test
    void aConfiguredStorageUrlWinsOverTheCatalog() throws IOException {
        URI url = keystone(body -> 201);
        URI given = URI.create("https://swift.example/v1/AUTH_x");
        SwiftStoreConfig config = SwiftStoreConfig.of(url, "unused", "unused")
                .withKeystone(KeystoneConfig.password("stork", SECRET, "stork").withEndpoint("Nowhere", null))
                .withStorageUrlOverride(given);
        SwiftSession session = new KeystoneV3Authenticator(HttpClient.newHttpClient(), config,
                new StoreDescription(StoreApi.SWIFT, url.toString()), statistics).authenticate();
        assertThat(session.storageUrl()).isEqualTo(given);
        assertThat(config.toString()).doesNotContain(SECRET).doesNotContain("unused\"");
    }
}
