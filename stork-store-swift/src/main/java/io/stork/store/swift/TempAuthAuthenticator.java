package io.stork.store.swift;

import io.stork.store.CallType;
import io.stork.store.OperationContext;
import io.stork.store.StoreDescription;
import io.stork.store.StoreException;
import io.stork.store.StoreStatistics;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Swift v1 authentication (tempauth, swauth, and Keystone's v1 shim): one GET for token and storage URL. */
final class TempAuthAuthenticator implements SwiftAuthenticator {

    private final HttpClient http;
    private final SwiftStoreConfig config;
    private final StoreDescription description;
    private final StoreStatistics statistics;

    TempAuthAuthenticator(HttpClient http, SwiftStoreConfig config, StoreDescription description,
                          StoreStatistics statistics) {
        this.http = http;
        this.config = config;
        this.description = description;
        this.statistics = statistics;
    }

    @Override
    public SwiftSession authenticate() throws IOException {
        OperationContext context = new OperationContext("AUTH", description, null, null);
        HttpRequest request = HttpRequest.newBuilder(config.authUrl())
                .GET()
                .timeout(config.requestTimeout())
                .header("X-Auth-User", config.user())
                .header("X-Auth-Key", config.key())
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(context + ": interrupted");
        } catch (IOException e) {
            statistics.recordCall(CallType.AUTH, 0, 0, true);
            throw SwiftErrors.fromTransport(context, e, config.authUrl());
        }
        int status = response.statusCode();
        statistics.recordCall(CallType.AUTH, 0, response.body().length(), status >= 400);
        if (status == 401 || status == 403) {
            throw new io.stork.store.AuthenticationException(context,
                    "credentials rejected for user " + config.user(), status, null);
        }
        if (status >= 300) {
            throw SwiftErrors.fromStatus(context, status, response.body(), false);
        }
        String token = response.headers().firstValue("X-Auth-Token").orElse(null);
        String storageUrl = response.headers().firstValue("X-Storage-Url").orElse(null);
        if (token == null || storageUrl == null) {
            throw new StoreException(context, "auth response lacks X-Auth-Token or X-Storage-Url", status, null);
        }
        URI url = config.storageUrlOverride() != null ? config.storageUrlOverride() : URI.create(storageUrl);
        return new SwiftSession(url, token);
    }
}
