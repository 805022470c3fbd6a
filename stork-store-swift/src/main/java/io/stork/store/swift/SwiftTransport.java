package io.stork.store.swift;

import io.stork.store.CallType;
import io.stork.store.OperationContext;
import io.stork.store.StoreDescription;
import io.stork.store.StoreStatistics;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/**
 * Sends Swift requests with a cached token: authenticates on first use and shortly before the token
 * expires (when its expiry is known), re-authenticates once on 401 when the request can be sent again,
 * and counts every request that goes on the wire.
 */
final class SwiftTransport {

    /** Builds a request for a session; called again with a fresh session after re-authentication. */
    @FunctionalInterface
    interface RequestFactory {
        HttpRequest build(SwiftSession session) throws IOException;
    }

    private final HttpClient http;
    private final SwiftAuthenticator authenticator;
    private final StoreStatistics statistics;
    private final StoreDescription description;
    private SwiftSession session;

    SwiftTransport(HttpClient http, SwiftAuthenticator authenticator, StoreStatistics statistics,
                   StoreDescription description) {
        this.http = http;
        this.authenticator = authenticator;
        this.statistics = statistics;
        this.description = description;
    }

    StoreDescription description() {
        return description;
    }

    StoreStatistics statistics() {
        return statistics;
    }

    /** The current session; a new one when there is none or the current one's token is about to expire. */
    synchronized SwiftSession session() throws IOException {
        if (session == null || session.due(java.time.Instant.now())) {
            session = authenticator.authenticate();
        }
        return session;
    }

    /** Drops a session the store rejected, unless another thread replaced it already. */
    synchronized void invalidate(SwiftSession rejected) {
        if (session == rejected) {
            session = null;
        }
    }

    /**
     * Sends a request whose body (if any) can be sent again, re-authenticating once on 401.
     * The caller reads and closes the response body.
     */
    <T> HttpResponse<T> send(OperationContext context, CallType type, long bodyLength, RequestFactory factory,
                             HttpResponse.BodyHandler<T> handler) throws IOException {
        SwiftSession current = session();
        HttpResponse<T> response = sendOnce(context, type, bodyLength, factory.build(current), handler);
        if (response.statusCode() == 401) {
            discard(response);
            invalidate(current);
            response = sendOnce(context, type, bodyLength, factory.build(session()), handler);
        }
        return response;
    }

    private <T> HttpResponse<T> sendOnce(OperationContext context, CallType type, long bodyLength,
                                         HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException {
        HttpResponse<T> response;
        try {
            response = http.send(request, handler);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(context + ": interrupted");
        } catch (IOException e) {
            statistics.recordCall(type, 0, 0, true);
            throw SwiftErrors.fromTransport(context, e, request.uri());
        }
        record(type, bodyLength, response);
        return response;
    }

    /** Sends a request whose body streams from the caller (no second attempt is possible). */
    CompletableFuture<HttpResponse<String>> sendStreaming(HttpRequest request) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    void record(CallType type, long bodyLength, HttpResponse<?> response) {
        long received = type == CallType.GET && response.statusCode() < 300 ? 0
                : response.headers().firstValueAsLong("Content-Length").orElse(0);
        statistics.recordCall(type, bodyLength, received, response.statusCode() >= 400);
    }

    static String bodyText(HttpResponse<?> response) {
        Object body = response.body();
        if (body instanceof String text) {
            return text;
        }
        if (body instanceof byte[] bytes) {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
        if (body instanceof InputStream in) {
            try (in) {
                return new String(in.readNBytes(4096), java.nio.charset.StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }
        return "";
    }

    static void discard(HttpResponse<?> response) {
        if (response.body() instanceof InputStream in) {
            try {
                in.close();
            } catch (IOException ignored) {
                // Nothing to recover: the connection is dropped.
            }
        }
    }
}
