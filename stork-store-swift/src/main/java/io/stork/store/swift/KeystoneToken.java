package io.stork.store.swift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A Keystone v3 token as the Swift client uses it: the token itself (from the {@code X-Subject-Token}
 * header), its lifetime, and the object-store endpoints of its service catalog. {@link #toString()} hides
 * the token.
 */
record KeystoneToken(String token, Instant issuedAt, Instant expiresAt, List<Endpoint> objectStores) {

    /** Refresh at most this long before expiry; earlier for short-lived tokens (see {@link #refreshAt()}). */
    static final Duration REFRESH_MARGIN = Duration.ofMinutes(5);

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One catalog entry of the object-store service. */
    record Endpoint(String region, String endpointInterface, URI url) {
    }

    KeystoneToken {
        objectStores = List.copyOf(objectStores);
    }

    /**
     * Reads a {@code POST /v3/auth/tokens} answer.
     *
     * @throws IOException if the body is not a v3 token (a proxy's page, a v2 answer)
     */
    static KeystoneToken parse(String subjectToken, String body) throws IOException {
        JsonNode token = JSON.readTree(body).path("token");
        if (subjectToken == null || subjectToken.isBlank() || !token.has("expires_at")) {
            throw new IOException("not a Keystone v3 token response (no X-Subject-Token header or token.expires_at)");
        }
        Instant expires = instant(token.path("expires_at").asText());
        Instant issued = token.has("issued_at") ? instant(token.path("issued_at").asText()) : null;
        List<Endpoint> endpoints = new ArrayList<>();
        for (JsonNode service : token.path("catalog")) {
            if (!"object-store".equals(service.path("type").asText())) {
                continue;
            }
            for (JsonNode e : service.path("endpoints")) {
                // v3 names the region region_id (and region, kept for v2 clients); either may be absent.
                String region = e.hasNonNull("region_id") ? e.get("region_id").asText() : e.path("region").asText(null);
                try {
                    endpoints.add(new Endpoint(region, e.path("interface").asText("").toLowerCase(Locale.ROOT),
                            URI.create(e.path("url").asText())));
                } catch (IllegalArgumentException bad) {
                    // An endpoint whose URL does not parse is skipped: another one may be the one asked for.
                }
            }
        }
        return new KeystoneToken(subjectToken, issued, expires, endpoints);
    }

    private static Instant instant(String text) throws IOException {
        try {
            return Instant.parse(text.endsWith("Z") || text.contains("+") ? text : text + "Z");
        } catch (DateTimeParseException e) {
            throw new IOException("Keystone token has an unreadable time: " + text);
        }
    }

    /** The object-store URL for {@code region} (null: any region) and {@code endpointInterface}; null if none. */
    URI endpoint(String region, String endpointInterface) {
        for (Endpoint e : objectStores) {
            if (e.endpointInterface().equals(endpointInterface) && (region == null || region.equals(e.region()))) {
                return e.url();
            }
        }
        return null;
    }

    /** What the catalog offers, for the message when {@link #endpoint} finds nothing. */
    String describeObjectStores() {
        if (objectStores.isEmpty()) {
            return "the catalog has no object-store service";
        }
        return "the catalog's object-store endpoints: " + objectStores.stream()
                .map(e -> e.endpointInterface() + " in " + e.region()).distinct().collect(Collectors.joining(", "));
    }

    /**
     * When to get a new token: {@link #REFRESH_MARGIN} before expiry, or a quarter of the lifetime before it
     * if that is shorter, so that a short-lived token is still used for most of its life.
     */
    Instant refreshAt() {
        Duration margin = REFRESH_MARGIN;
        if (issuedAt != null) {
            Duration quarter = Duration.between(issuedAt, expiresAt).dividedBy(4);
            if (quarter.compareTo(margin) < 0) {
                margin = quarter.isNegative() ? Duration.ZERO : quarter;
            }
        }
        return expiresAt.minus(margin);
    }

    @Override
    public String toString() {
        return "KeystoneToken[expires " + expiresAt + ", " + objectStores.size() + " object-store endpoints]";
    }
}
