package io.stork.store.swift;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.stork.store.BucketNotFoundException;
import io.stork.store.CallType;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.OperationContext;
import io.stork.store.PutOptions;
import io.stork.store.StoreException;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Swift static large objects (SLO) as Stork writes them: segments in the container {@code <container>_segments}
 * (Swift's own tools' convention, so listings of the container itself never show them) named
 * {@code <key>/<upload id>/<8-digit index>}, and a manifest PUT to the object's key, which is the commit
 * point. Naming segments after their object's key lets a delete find the segments of an object without
 * reading its manifest (docs/object-store-clients.md, "Segmented uploads over Swift").
 */
final class SwiftLargeObjects {

    /** Swift's default {@code max_manifest_segments}: a manifest naming more is refused. */
    static final int MAX_SEGMENTS = 1000;
    /** Swift's default {@code max_file_size}: no segment (nor plain object) may be larger. */
    static final long MAX_SEGMENT_SIZE = 5L * 1024 * 1024 * 1024;
    static final String SEGMENTS_SUFFIX = "_segments";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern UPLOAD_AND_INDEX = Pattern.compile("[0-9a-f]{8}-[0-9a-f-]{27}/\\d{8}");

    /** One segment of an upload, as the manifest names it. */
    record Segment(String name, String etag, long size) {
    }

    private final SwiftObjectStore store;
    private final SwiftTransport transport;
    /** Segment containers this client made or found: made once per client, not once per upload. */
    private final Set<String> knownContainers = ConcurrentHashMap.newKeySet();

    SwiftLargeObjects(SwiftObjectStore store, SwiftTransport transport) {
        this.store = store;
        this.transport = transport;
    }

    static String segmentContainer(String bucket) {
        return bucket + SEGMENTS_SUFFIX;
    }

    static String segmentName(String key, String uploadId, int index) {
        return key + "/" + uploadId + "/" + String.format("%08d", index);
    }

    /** Makes the container of {@code bucket}'s segments unless this client did already (1 PUT, idempotent). */
    void ensureSegmentContainer(String bucket) throws IOException {
        String container = segmentContainer(bucket);
        if (!knownContainers.contains(container)) {
            store.createBucket(container);
            knownContainers.add(container);
        }
    }

    /**
     * PUTs the manifest that makes {@code segments} one object at {@code key}: the commit point of a
     * segmented upload, with the upload's content type, metadata and create-if-absent condition.
     */
    ObjectInfo putManifest(ObjectKey key, List<Segment> segments, long length, PutOptions options) throws IOException {
        ArrayNode manifest = JSON.createArrayNode();
        for (Segment segment : segments) {
            manifest.addObject()
                    .put("path", "/" + segmentContainer(key.bucket()) + "/" + segment.name())
                    .put("etag", segment.etag())
                    .put("size_bytes", segment.size());
        }
        byte[] body = JSON.writeValueAsBytes(manifest);
        OperationContext context = store.context("PUT", key);
        HttpResponse<String> response = transport.send(context, CallType.PUT, body.length, session -> {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(
                            SwiftObjectStore.objectUri(session, key) + "?multipart-manifest=put"))
                    .header("X-Auth-Token", session.token())
                    .timeout(store.config().requestTimeout())
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(body));
            store.putHeaders(request, options);
            return request.build();
        }, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), options.ifNotExists());
        }
        String etag = ObjectInfo.unquoteEtag(response.headers().firstValue("Etag").orElse(null));
        return new ObjectInfo(key, length, etag, null, options.userMetadata());
    }

    /**
     * Deletes {@code key} with its segments if it is a static large object (one DELETE that follows the
     * manifest). Returns false, having deleted nothing, when it is a plain object.
     */
    boolean deleteManifest(ObjectKey key) throws IOException {
        OperationContext context = store.context("DELETE", key);
        HttpResponse<String> response = transport.send(context, CallType.DELETE, 0,
                session -> HttpRequest.newBuilder(URI.create(
                                SwiftObjectStore.objectUri(session, key) + "?multipart-manifest=delete"))
                        .header("X-Auth-Token", session.token())
                        .header("Accept", "application/json")
                        .timeout(store.config().requestTimeout()).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300 && response.statusCode() != 404) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), false);
        }
        if (response.statusCode() == 404 || !response.body().trim().startsWith("{")) {
            return true;
        }
        SwiftBulkDelete.Report report = SwiftBulkDelete.Report.parse(response.body());
        if (report.errors().toString().contains("Not an SLO manifest")) {
            return false;
        }
        if (!report.errors().isEmpty() || !(report.status().startsWith("2") || report.status().startsWith("404"))) {
            throw new StoreException(context, "delete failed: " + report.status()
                    + (report.errors().isEmpty() ? "" : " " + SwiftErrors.summary(report.errors().toString())), 0, null);
        }
        return true;
    }

    /** Deletes segments of an upload that will not be committed (one bulk delete); never throws. */
    void deleteSegments(String bucket, List<Segment> segments) {
        if (segments.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>(segments.size());
        segments.forEach(s -> names.add(s.name()));
        try {
            store.deleteAllPlain(segmentContainer(bucket), names);
        } catch (IOException e) {
            // The upload has failed already; its segments are swept when the key is deleted.
        }
    }

    /**
     * Deletes the segments of {@code deletedKeys} (objects a bulk delete removed, which does not follow
     * manifests): one LIST of the segment container under the keys' common prefix, one bulk delete if any
     * are found. Only segments written before {@code deletedAt} (the store's clock when the keys were
     * deleted) go. Returns the number of segments deleted.
     */
    int sweep(String bucket, Collection<String> deletedKeys, Instant deletedAt) throws IOException {
        if (deletedKeys.isEmpty()) {
            return 0;
        }
        Set<String> keys = new HashSet<>(deletedKeys);
        String container = segmentContainer(bucket);
        List<String> orphans = new ArrayList<>();
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(container, commonPrefix(deletedKeys)))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                String name = entry.name();
                String owner = ownerKey(name);
                // Segments written in a later second than the delete began (the store's Date has seconds)
                // are a new upload's of the same key, not the deleted object's.
                if (owner != null && keys.contains(owner) && entry instanceof ListEntry.ListedObject object
                        && object.lastModified() != null && object.lastModified().isBefore(deletedAt.plusSeconds(1))) {
                    orphans.add(name);
                }
            }
        } catch (BucketNotFoundException e) {
            return 0; // nothing was ever segmented in this container
        }
        if (!orphans.isEmpty()) {
            store.deleteAllPlain(container, orphans);
        }
        return orphans.size();
    }

    /** The key whose segment {@code name} is, or null when it is not named as Stork names segments. */
    static String ownerKey(String name) {
        int last = name.lastIndexOf('/');
        int upload = last <= 0 ? -1 : name.lastIndexOf('/', last - 1);
        if (upload <= 0 || !UPLOAD_AND_INDEX.matcher(name.substring(upload + 1)).matches()) {
            return null;
        }
        return name.substring(0, upload);
    }

    static String commonPrefix(Collection<String> keys) {
        String prefix = null;
        for (String key : keys) {
            if (prefix == null) {
                prefix = key;
                continue;
            }
            int n = 0;
            int max = Math.min(prefix.length(), key.length());
            while (n < max && prefix.charAt(n) == key.charAt(n)) {
                n++;
            }
            if (n > 0 && Character.isHighSurrogate(prefix.charAt(n - 1))) {
                n--; // a prefix never splits a character
            }
            prefix = prefix.substring(0, n);
        }
        return prefix == null ? "" : prefix;
    }
}
