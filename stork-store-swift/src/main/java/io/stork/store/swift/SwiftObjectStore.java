package io.stork.store.swift;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.DeleteResult;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.OperationContext;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.StoreApi;
import io.stork.store.StoreDescription;
import io.stork.store.StoreException;
import io.stork.store.StoreIterator;
import io.stork.store.StoreStatistics;
import io.stork.store.UploadStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link ObjectStore} over the OpenStack Swift API with the JDK's HTTP client. Calls per operation: put =
 * 1 PUT; create = 1 PUT (chunked beyond the first chunk), or with a segment size and past the first chunk
 * one PUT per segment and one for the manifest (and once per client the segment container's PUT); get =
 * 1 GET; head = 1 HEAD; list = 1 LIST per page; delete = 1 DELETE (a static large object's segments with
 * it); deleteAll = 1 bulk-delete POST per 10,000 keys (with a segment size, and 1 LIST of the segment
 * container, 1 more bulk delete if the keys had segments); copy = 1 COPY. The first call of a client also
 * authenticates (1 AUTH: tempauth, or Keystone v3, whose token is also renewed shortly before it expires), and
 * a token the store rejects costs 1 AUTH and the retried call.
 */
public final class SwiftObjectStore implements ObjectStore {

    private static final String META_PREFIX = "x-object-meta-";
    private static final AtomicInteger HTTP_THREADS = new AtomicInteger();

    static {
        // The JDK client moves bodies in buffers of jdk.httpclient.bufsize (16 KiB by default), each through
        // its reactive pipeline: at 300+ MB/s that overhead cost a fifth of GET throughput on two cores.
        // 128 KiB buffers remove it. It is read once per JVM, so it is set only if nobody chose a value.
        if (System.getProperty("jdk.httpclient.bufsize") == null) {
            System.setProperty("jdk.httpclient.bufsize", Integer.toString(128 * 1024));
        }
    }

    private final SwiftStoreConfig config;
    private final StoreDescription description;
    private final StoreStatistics statistics;
    private final SwiftTransport transport;
    private final SwiftLargeObjects largeObjects;
    private final SwiftBulkDelete bulkDelete;

    public SwiftObjectStore(SwiftStoreConfig config) {
        this.config = config;
        this.description = new StoreDescription(StoreApi.SWIFT, config.authUrl().toString());
        this.statistics = StoreStatistics.forClient();
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(sslContext(config))
                .connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(Executors.newCachedThreadPool(r -> {
                    Thread t = new Thread(r, "stork-swift-http-" + HTTP_THREADS.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }))
                .build();
        SwiftAuthenticator authenticator = config.keystone() != null
                ? new KeystoneV3Authenticator(http, config, description, statistics)
                : new TempAuthAuthenticator(http, config, description, statistics);
        this.transport = new SwiftTransport(http, authenticator, statistics, description);
        this.largeObjects = new SwiftLargeObjects(this, transport);
        this.bulkDelete = new SwiftBulkDelete(transport, description, config);
    }

    /** The configured trust for https auth and storage URLs (the provider checked the trust store already). */
    private static javax.net.ssl.SSLContext sslContext(SwiftStoreConfig config) {
        try {
            return config.tls().sslContext();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    SwiftLargeObjects largeObjects() {
        return largeObjects;
    }

    @Override
    public StoreDescription description() {
        return description;
    }

    /** Swift honours If-None-Match: * on PUT (the proxy checks before it streams the body). */
    @Override
    public boolean supportsConditionalCreate() {
        return true;
    }

    @Override
    public StoreStatistics statistics() {
        return statistics;
    }

    SwiftStoreConfig config() {
        return config;
    }

    OperationContext context(String operation, ObjectKey key) {
        return OperationContext.of(operation, description, key);
    }

    HttpRequest.Builder objectRequest(SwiftSession session, ObjectKey key) {
        return HttpRequest.newBuilder(objectUri(session, key)).header("X-Auth-Token", session.token());
    }

    static URI objectUri(SwiftSession session, ObjectKey key) {
        return URI.create(session.storageUrl() + "/" + KeyEncoding.path(key.bucket()) + "/"
                + KeyEncoding.path(key.key()));
    }

    private static URI containerUri(SwiftSession session, String bucket) {
        return URI.create(session.storageUrl() + "/" + KeyEncoding.path(bucket));
    }

    void putHeaders(HttpRequest.Builder request, PutOptions options) {
        request.header("Content-Type", options.contentType() == null ? "application/octet-stream"
                : options.contentType());
        options.userMetadata().forEach((name, value) -> request.header("X-Object-Meta-" + name, value));
        if (options.ifNotExists()) {
            request.header("If-None-Match", "*");
        }
    }

    @Override
    public ObjectInfo put(ObjectKey key, PutBody body, PutOptions options) throws IOException {
        OperationContext context = context("PUT", key);
        HttpResponse<String> response = transport.send(context, CallType.PUT, body.length(), session -> {
            // No "Expect: 100-continue": JDK 17's client hangs when the store answers a final status
            // (412, 401) instead of 100, so the body is sent and the store discards it on refusal.
            HttpRequest.Builder request = objectRequest(session, key).timeout(config.requestTimeout())
                    .PUT(publisher(body));
            putHeaders(request, options);
            return request.build();
        }, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), options.ifNotExists());
        }
        String etag = ObjectInfo.unquoteEtag(response.headers().firstValue("Etag").orElse(null));
        return new ObjectInfo(key, body.length(), etag, null, options.userMetadata());
    }

    private static HttpRequest.BodyPublisher publisher(PutBody body) throws IOException {
        if (body.length() == 0) {
            return HttpRequest.BodyPublishers.noBody();
        }
        if (body.bytesOrNull() != null) {
            return HttpRequest.BodyPublishers.ofByteArray(body.bytesOrNull());
        }
        if (body.fileOrNull() != null) {
            return HttpRequest.BodyPublishers.ofFile(body.fileOrNull());
        }
        return HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> {
            try {
                return body.open();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }), body.length());
    }

    @Override
    public UploadStream create(ObjectKey key, PutOptions options) {
        return new SwiftUploadStream(this, transport, key, options);
    }

    @Override
    public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException {
        OperationContext context = context("GET", key);
        HttpResponse<InputStream> response = transport.send(context, CallType.GET, 0, session -> {
            HttpRequest.Builder request = objectRequest(session, key).timeout(config.requestTimeout()).GET();
            if (range.httpHeader() != null) {
                request.header("Range", range.httpHeader());
            }
            if (!condition.isNone()) {
                request.header(condition.match() ? "If-Match" : "If-None-Match", condition.headerValue());
            }
            return request.build();
        }, HttpResponse.BodyHandlers.ofInputStream());
        int status = response.statusCode();
        if (status != 200 && status != 206) {
            String body = SwiftTransport.bodyText(response);
            if (status == 304 || status == 412 && !condition.isNone()) {
                throw SwiftErrors.conditionFailed(context, status);
            }
            throw SwiftErrors.fromStatus(context, status, body, false);
        }
        HttpHeaders headers = response.headers();
        long served = headers.firstValueAsLong("Content-Length").orElse(-1);
        long total = status == 206 ? totalFromContentRange(headers.firstValue("Content-Range").orElse(null), served)
                : served;
        if (served < 0) {
            SwiftTransport.discard(response);
            throw new StoreException(context, "GET response has no Content-Length", status, null);
        }
        ObjectInfo info = new ObjectInfo(key, total, etag(headers), lastModified(headers), userMetadata(headers));
        long start = status == 206 ? range.start() : 0;
        return new ObjectStream(new CountingBody(response.body()), info, start, served);
    }

    private static long totalFromContentRange(String contentRange, long served) {
        if (contentRange == null || contentRange.indexOf('/') < 0) {
            return served;
        }
        String total = contentRange.substring(contentRange.lastIndexOf('/') + 1).trim();
        return total.equals("*") ? served : Long.parseLong(total);
    }

    @Override
    public ObjectInfo head(ObjectKey key) throws IOException {
        OperationContext context = context("HEAD", key);
        HttpResponse<Void> response = transport.send(context, CallType.HEAD, 0,
                session -> objectRequest(session, key).timeout(config.requestTimeout())
                        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), "", false);
        }
        HttpHeaders headers = response.headers();
        return new ObjectInfo(key, headers.firstValueAsLong("Content-Length").orElse(0), etag(headers),
                lastModified(headers), userMetadata(headers));
    }

    @Override
    public StoreIterator<ListEntry> list(ListRequest request) {
        return new SwiftListing(transport, request, OperationContext.ofBucket("LIST", description, request.bucket()));
    }

    /**
     * One DELETE. With a segment size configured (this client writes static large objects), the DELETE
     * asks to follow a manifest ({@code multipart-manifest=delete}), so a segmented object goes with its
     * segments in that one call; Swift refuses that for a plain object ("Not an SLO manifest"), which then
     * costs a second, plain DELETE.
     */
    @Override
    public void delete(ObjectKey key) throws IOException {
        if (config.segmentSize() > 0 && largeObjects.deleteManifest(key)) {
            return;
        }
        OperationContext context = context("DELETE", key);
        HttpResponse<String> response = transport.send(context, CallType.DELETE, 0,
                session -> objectRequest(session, key).timeout(config.requestTimeout()).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300 && response.statusCode() != 404) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), false);
        }
    }

    /**
     * Bulk deletes, which do not follow static large objects' manifests: with a segment size configured
     * (this client may have written some), the segments of the keys deleted are swept after them.
     */
    @Override
    public DeleteResult deleteAll(String bucket, Collection<String> keys) throws IOException {
        Instant[] storeTime = new Instant[1];
        DeleteResult result = bulkDelete.delete(bucket, keys, storeTime);
        if (config.segmentSize() > 0 && storeTime[0] != null && !bucket.endsWith(SwiftLargeObjects.SEGMENTS_SUFFIX)) {
            List<String> deleted = new ArrayList<>(keys);
            deleted.removeAll(result.failures().keySet());
            largeObjects.sweep(bucket, deleted, storeTime[0]);
        }
        return result;
    }

    /** Bulk deletes {@code keys} and nothing else. */
    DeleteResult deleteAllPlain(String bucket, Collection<String> keys) throws IOException {
        return bulkDelete.delete(bucket, keys, new Instant[1]);
    }


    @Override
    public void copy(ObjectKey source, ObjectKey target) throws IOException {
        OperationContext context = new OperationContext("COPY", description, target.bucket(),
                target.key() + " from " + source);
        HttpResponse<String> response = transport.send(context, CallType.COPY, 0,
                session -> objectRequest(session, source).timeout(config.requestTimeout())
                        .header("Destination", "/" + KeyEncoding.path(target.bucket()) + "/"
                                + KeyEncoding.path(target.key()))
                        .method("COPY", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), false);
        }
    }

    @Override
    public void createBucket(String bucket) throws IOException {
        OperationContext context = OperationContext.ofBucket("CREATE_BUCKET", description, bucket);
        HttpResponse<String> response = transport.send(context, CallType.BUCKET_CREATE, 0,
                session -> HttpRequest.newBuilder(containerUri(session, bucket)).header("X-Auth-Token", session.token())
                        .timeout(config.requestTimeout()).PUT(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), false);
        }
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        OperationContext context = OperationContext.ofBucket("DELETE_BUCKET", description, bucket);
        HttpResponse<String> response = transport.send(context, CallType.BUCKET_DELETE, 0,
                session -> HttpRequest.newBuilder(containerUri(session, bucket)).header("X-Auth-Token", session.token())
                        .timeout(config.requestTimeout()).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300 && response.statusCode() != 404) {
            throw SwiftErrors.fromStatus(context, response.statusCode(), response.body(), false);
        }
    }

    @Override
    public void close() {
        // The JDK client closes idle connections itself; its daemon threads end with the JVM.
    }

    private static String etag(HttpHeaders headers) {
        return ObjectInfo.unquoteEtag(headers.firstValue("Etag").orElse(null));
    }

    private static Instant lastModified(HttpHeaders headers) {
        return headers.firstValue("Last-Modified")
                .map(v -> ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant())
                .orElse(null);
    }

    private static Map<String, String> userMetadata(HttpHeaders headers) {
        Map<String, String> metadata = new HashMap<>();
        headers.map().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith(META_PREFIX) && !values.isEmpty()) {
                metadata.put(lower.substring(META_PREFIX.length()), values.get(0));
            }
        });
        return metadata;
    }

    /** Counts GET body bytes as the caller reads them. */
    private final class CountingBody extends FilterInputStream {
        CountingBody(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                statistics.recordBytes(CallType.GET, 0, 1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                statistics.recordBytes(CallType.GET, 0, n);
            }
            return n;
        }
    }
}
