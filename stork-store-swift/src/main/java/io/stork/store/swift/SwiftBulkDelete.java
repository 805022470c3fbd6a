package io.stork.store.swift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stork.store.CallType;
import io.stork.store.DeleteResult;
import io.stork.store.OperationContext;
import io.stork.store.StoreDescription;
import io.stork.store.StoreException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Swift's bulk delete ({@code POST ?bulk-delete}): up to 10,000 names a call, the outcome in the body. */
final class SwiftBulkDelete {

    private static final int MAX_KEYS_PER_BULK_DELETE = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SwiftTransport transport;
    private final StoreDescription description;
    private final SwiftStoreConfig config;

    SwiftBulkDelete(SwiftTransport transport, StoreDescription description, SwiftStoreConfig config) {
        this.transport = transport;
        this.description = description;
        this.config = config;
    }

    /**
     * What Swift reports in the body of a bulk delete, and of a DELETE that follows an SLO manifest: it
     * answers 200 at once and streams the outcome as it works, so the status is in the body.
     */
    record Report(String status, String body, JsonNode errors, int deleted, int notFound) {

        static Report parse(String json) throws IOException {
            JsonNode outcome = JSON.readTree(json.trim());
            return new Report(outcome.path("Response Status").asText(""), outcome.path("Response Body").asText(""),
                    outcome.path("Errors"), outcome.path("Number Deleted").asInt(), outcome.path("Number Not Found").asInt());
        }
    }

    /** @param storeTime set to the store's clock when its first bulk delete began (its Date header) */
    DeleteResult delete(String bucket, Collection<String> keys, Instant[] storeTime) throws IOException {
        OperationContext context = OperationContext.ofBucket("BULK_DELETE", description, bucket);
        List<String> all = new ArrayList<>(keys);
        Map<String, String> failures = new HashMap<>();
        int deleted = 0;
        for (int from = 0; from < all.size(); from += MAX_KEYS_PER_BULK_DELETE) {
            List<String> batch = all.subList(from, Math.min(all.size(), from + MAX_KEYS_PER_BULK_DELETE));
            StringBuilder body = new StringBuilder();
            for (String key : batch) {
                body.append('/').append(KeyEncoding.path(bucket)).append('/').append(KeyEncoding.path(key))
                        .append('\n');
            }
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> response = transport.send(context, CallType.BULK_DELETE, bytes.length,
                    session -> HttpRequest.newBuilder(URI.create(session.storageUrl() + "?bulk-delete"))
                            .header("X-Auth-Token", session.token())
                            .header("Content-Type", "text/plain")
                            .header("Accept", "application/json")
                            .timeout(config.requestTimeout())
                            .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), false);
            }
            if (storeTime[0] == null) {
                storeTime[0] = response.headers().firstValue("Date")
                        .map(v -> ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()).orElse(null);
            }
            Report report = Report.parse(response.body());
            for (JsonNode error : report.errors()) {
                String name = error.path(0).asText();
                String prefix = "/" + bucket + "/";
                failures.put(name.startsWith(prefix) ? name.substring(prefix.length()) : name, error.path(1).asText());
            }
            if (report.errors().isEmpty() && !report.status().startsWith("2")) {
                throw new StoreException(context, "bulk delete failed: " + report.status() + " " + report.body(),
                        response.statusCode(), null);
            }
            deleted += report.deleted() + report.notFound();
        }
        return new DeleteResult(deleted, failures);
    }
}
