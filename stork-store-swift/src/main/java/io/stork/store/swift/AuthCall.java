package io.stork.store.swift;

import io.stork.store.CallType;
import io.stork.store.OperationContext;
import io.stork.store.StoreStatistics;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** One request to an authentication service (tempauth, Keystone), counted as {@link CallType#AUTH}. */
final class AuthCall {

    private AuthCall() {
    }

    /** Sends {@code request}; transport failures become one-line store errors. The body is a string. */
    static HttpResponse<String> send(HttpClient http, HttpRequest request, long bytesSent, OperationContext context,
                                     StoreStatistics statistics) throws IOException {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(context + ": interrupted");
        } catch (IOException e) {
            statistics.recordCall(CallType.AUTH, bytesSent, 0, true);
            throw SwiftErrors.fromTransport(context, e);
        }
        statistics.recordCall(CallType.AUTH, bytesSent, response.body().length(), response.statusCode() >= 400);
        return response;
    }
}
