package io.stork.store.swift;

import io.stork.store.CallType;
import io.stork.store.OperationContext;
import io.stork.store.StoreStatistics;
import io.stork.store.StoreUnreachableException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;

/** One request to an authentication service (tempauth, Keystone), counted as {@link CallType#AUTH}. */
final class AuthCall {

    private AuthCall() {
    }

    /**
     * Sends {@code request}; transport failures become one-line store errors. The body is a string.
     *
     * <p>A connection that broke before any answer came (typically one the server closed while the client
     * kept it for reuse: Keystone's test server closes after every answer, a busy one after its keep-alive
     * timeout, and the JDK client resends only GETs by itself) is tried once more on a new one: asking for
     * a token changes nothing at the server, so sending it twice is harmless. Timeouts are not repeated.
     */
    static HttpResponse<String> send(HttpClient http, HttpRequest request, long bytesSent, OperationContext context,
                                     StoreStatistics statistics) throws IOException {
        try {
            return sendOnce(http, request, bytesSent, context, statistics);
        } catch (StoreUnreachableException e) {
            if (!e.isRetryable() || e.getCause() instanceof HttpTimeoutException) {
                throw e;
            }
            return sendOnce(http, request, bytesSent, context, statistics);
        }
    }

    private static HttpResponse<String> sendOnce(HttpClient http, HttpRequest request, long bytesSent,
                                                 OperationContext context, StoreStatistics statistics)
            throws IOException {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(context + ": interrupted");
        } catch (IOException e) {
            statistics.recordCall(CallType.AUTH, bytesSent, 0, true);
            throw SwiftErrors.fromTransport(context, e, request.uri());
        }
        statistics.recordCall(CallType.AUTH, bytesSent, response.body().length(), response.statusCode() >= 400);
        return response;
    }
}
