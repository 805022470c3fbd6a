package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.store.StoreApi;
import io.stork.store.StoreDescription;
import io.stork.store.StoreStatistics;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When the transport asks its authenticator for a new session. */
class SwiftTransportSessionTest {

    private final AtomicInteger authentications = new AtomicInteger();

    private SwiftTransport transport(Duration refreshIn) {
        SwiftAuthenticator authenticator = () -> new SwiftSession(URI.create("http://s/v1/AUTH_p"),
                "token-" + authentications.incrementAndGet(), refreshIn == null ? null : Instant.now().plus(refreshIn));
        return new SwiftTransport(HttpClient.newHttpClient(), authenticator, StoreStatistics.forClient(),
                new StoreDescription(StoreApi.SWIFT, "http://k/v3"));
    }

    @Test
    void aTokenIsReusedUntilItsRefreshTime() throws IOException {
        SwiftTransport transport = transport(Duration.ofMinutes(55));
        for (int i = 0; i < 100; i++) {
            assertThat(transport.session().token()).isEqualTo("token-1");
        }
        assertThat(authentications).hasValue(1);
    }

    @Test
    void aTokenPastItsRefreshTimeIsReplacedBeforeUse() throws IOException {
        SwiftTransport transport = transport(Duration.ofMillis(-1));
        assertThat(transport.session().token()).isEqualTo("token-1");
        assertThat(transport.session().token()).isEqualTo("token-2");
    }

    @Test
    void aTempauthTokenIsKeptUntilTheStoreRejectsIt() throws IOException {
        SwiftTransport transport = transport(null);
        SwiftSession first = transport.session();
        assertThat(transport.session()).isSameAs(first);
        transport.invalidate(first);
        assertThat(transport.session().token()).isEqualTo("token-2");
    }
}
