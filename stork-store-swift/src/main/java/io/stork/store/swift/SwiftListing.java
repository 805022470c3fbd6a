package io.stork.store.swift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stork.store.CallType;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.OperationContext;
import io.stork.store.StoreException;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.NoSuchElementException;

/**
 * Container listing pages ({@code GET <container>?format=json&limit=&marker=}) fetched as the iterator
 * advances. Swift interleaves {@code subdir} entries with objects in name order. A page shorter than the
 * limit is the last, so 2,500 keys take 3 LISTs; a failed page is fetched again on the next call.
 */
final class SwiftListing implements StoreIterator<ListEntry> {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SwiftTransport transport;
    private final ListRequest request;
    private final OperationContext context;
    private final Deque<ListEntry> page = new ArrayDeque<>();
    private String marker;
    private boolean lastPageFetched;

    SwiftListing(SwiftTransport transport, ListRequest request, OperationContext context) {
        this.transport = transport;
        this.request = request;
        this.context = context;
        this.marker = request.startAfter();
    }

    @Override
    public boolean hasNext() throws IOException {
        while (page.isEmpty() && !lastPageFetched) {
            fetchPage();
        }
        return !page.isEmpty();
    }

    @Override
    public ListEntry next() throws IOException {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return page.removeFirst();
    }

    private void fetchPage() throws IOException {
        StringBuilder query = new StringBuilder("?format=json&limit=").append(request.pageSize());
        if (!request.prefix().isEmpty()) {
            query.append("&prefix=").append(KeyEncoding.query(request.prefix()));
        }
        if (request.delimiter() != null) {
            query.append("&delimiter=").append(KeyEncoding.query(request.delimiter()));
        }
        if (marker != null) {
            query.append("&marker=").append(KeyEncoding.query(marker));
        }
        HttpResponse<byte[]> response = transport.send(context, CallType.LIST, 0,
                session -> HttpRequest.newBuilder(URI.create(session.storageUrl() + "/"
                                + KeyEncoding.path(request.bucket()) + query))
                        .header("X-Auth-Token", session.token())
                        .GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), SwiftTransport.bodyText(response), false);
        }
        JsonNode entries = response.body().length == 0 ? JSON.createArrayNode() : JSON.readTree(response.body());
        if (!entries.isArray()) {
            throw new StoreException(context, "listing is not a JSON array", response.statusCode(), null);
        }
        String last = null;
        for (JsonNode entry : entries) {
            if (entry.has("subdir")) {
                last = entry.get("subdir").asText();
                page.add(new ListEntry.CommonPrefix(last));
            } else {
                last = entry.get("name").asText();
                page.add(new ListEntry.ListedObject(last, entry.path("bytes").asLong(),
                        entry.path("hash").asText(null), lastModified(entry.path("last_modified").asText(null))));
            }
        }
        marker = last;
        lastPageFetched = entries.size() < request.pageSize();
    }

    private static Instant lastModified(String text) {
        if (text == null) {
            return null;
        }
        return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    }
}
