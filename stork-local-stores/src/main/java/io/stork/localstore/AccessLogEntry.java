package io.stork.localstore;

import io.stork.store.CallType;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * One request as the store's proxy logged it (the template scripts/local-store.sh configures):
 * {@code STORK-ACCESS method path status bytes_in bytes_out source start end txid user_agent headers}.
 * {@link #callType()} classifies it independently of any client, from the method, path, query and the
 * copy headers, for both the S3 and the Swift API.
 *
 * <p>A virtual-hosted-style S3 request names its bucket in the Host header, and the proxy logs the path
 * as sent ({@code /key}): parsed with the store's storage domain, its {@link #path()} is the path-style
 * one ({@code /bucket/key}), so it is classified like any other, and {@link #virtualHostBucket()} says it
 * came host-style.
 *
 * @param virtualHostBucket the bucket a virtual-hosted-style request named in its Host header, or null
 */
public record AccessLogEntry(String method, String path, String query, int status, long bytesReceived,
                             long bytesSent, String source, double startTime, String transactionId,
                             String userAgent, String headers, String virtualHostBucket) {

    static final String TAG = "STORK-ACCESS ";

    /** Parses a log line, or returns empty for lines of other loggers. */
    public static Optional<AccessLogEntry> parse(String line) {
        return parse(line, null);
    }

    /**
     * Parses a log line of a store whose s3api has a storage domain (null: none), or returns empty for
     * lines of other loggers.
     */
    public static Optional<AccessLogEntry> parse(String line, String storageDomain) {
        int at = line.indexOf(TAG);
        if (at < 0) {
            return Optional.empty();
        }
        String[] f = line.substring(at + TAG.length()).trim().split(" ");
        if (f.length < 11) {
            return Optional.empty();
        }
        String pathAndQuery = decode(f[1]);
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? "" : pathAndQuery.substring(q + 1);
        String headers = decode(f[10]);
        String bucket = virtualHostBucket(headers, storageDomain);
        if (bucket != null) {
            path = "/" + bucket + (path.equals("/") ? "" : path);
        }
        return Optional.of(new AccessLogEntry(f[0], path, query, Integer.parseInt(f[2]), number(f[3]), number(f[4]),
                f[5], Double.parseDouble(f[6]), f[8], decode(f[9]), headers, bucket));
    }

    /** The bucket in a Host header {@code <bucket>.<domain>[:port]}, as s3api reads it; null for other hosts. */
    private static String virtualHostBucket(String headers, String storageDomain) {
        if (storageDomain == null || storageDomain.isEmpty()) {
            return null;
        }
        for (String header : headers.split("\n")) {
            int colon = header.indexOf(':');
            if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("host")) {
                String host = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                int port = host.lastIndexOf(':');
                host = port > 0 ? host.substring(0, port) : host;
                String suffix = "." + storageDomain.toLowerCase(Locale.ROOT);
                return host.endsWith(suffix) && host.length() > suffix.length()
                        ? host.substring(0, host.length() - suffix.length()) : null;
            }
        }
        return null;
    }

    private static long number(String field) {
        return field.equals("-") ? 0 : Long.parseLong(field);
    }

    private static String decode(String field) {
        return URLDecoder.decode(field.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** A request a client sent, as opposed to one a middleware made on the client's behalf. */
    /** Path prefix of the HEAD requests a process under test sends between its steps (to no bucket). */
    public static final String STEP_MARKER_PREFIX = "/stork-step-";

    /** A process's step marker: the name of the step that starts after it. */
    public java.util.Optional<String> stepMarker() {
        if (!path.startsWith(STEP_MARKER_PREFIX)) {
            return java.util.Optional.empty();
        }
        // The log quotes the path the client sent quoted: undo both.
        String name = path.substring(STEP_MARKER_PREFIX.length());
        for (String decoded; !(decoded = java.net.URLDecoder.decode(name, java.nio.charset.StandardCharsets.UTF_8))
                .equals(name); ) {
            name = decoded;
        }
        return java.util.Optional.of(name);
    }

    public boolean fromClient() {
        return source.equals("-");
    }

    /**
     * The read of a copy's source that Swift's server-side-copy middleware makes (source {@code SSC}): its
     * bytes are the bytes a COPY moved inside the store, through either API.
     */
    public boolean serverSideCopyRead() {
        return source.equals("SSC") && method.equals("GET") && status < 300;
    }

    public boolean successful() {
        return status < 400;
    }

    public CallType callType() {
        if (path.startsWith("/auth/")) {
            return CallType.AUTH;
        }
        return path.startsWith("/v1/") ? swiftCallType() : s3CallType();
    }

    private CallType swiftCallType() {
        String[] parts = path.substring(1).split("/", 4); // v1, account, container, object
        boolean hasContainer = parts.length >= 3 && !parts[2].isEmpty();
        boolean hasObject = parts.length == 4 && !parts[3].isEmpty();
        if (!hasContainer) {
            return hasQuery("bulk-delete") ? CallType.BULK_DELETE : CallType.LIST;
        }
        if (!hasObject) {
            return bucketCall();
        }
        switch (method) {
            case "PUT":
                return hasHeader("x-copy-from") ? CallType.COPY : CallType.PUT;
            case "COPY":
                return CallType.COPY;
            default:
                return objectCall();
        }
    }

    private CallType s3CallType() {
        String[] parts = path.substring(1).split("/", 2);
        boolean hasKey = parts.length == 2 && !parts[1].isEmpty();
        if (hasQuery("uploads") && method.equals("POST")) {
            return CallType.MULTIPART_INITIATE;
        }
        if (hasQuery("uploadId")) {
            switch (method) {
                case "PUT":
                    return CallType.MULTIPART_PART;
                case "POST":
                    return CallType.MULTIPART_COMPLETE;
                case "DELETE":
                    return CallType.MULTIPART_ABORT;
                default:
                    return CallType.LIST;
            }
        }
        if (hasQuery("delete") && method.equals("POST")) {
            return CallType.BULK_DELETE;
        }
        if (!hasKey) {
            return bucketCall();
        }
        return method.equals("PUT") && hasHeader("x-amz-copy-source") ? CallType.COPY : objectCall();
    }

    private CallType bucketCall() {
        switch (method) {
            case "PUT":
                return CallType.BUCKET_CREATE;
            case "HEAD":
                return CallType.BUCKET_HEAD;
            case "DELETE":
                return CallType.BUCKET_DELETE;
            default:
                return CallType.LIST;
        }
    }

    private CallType objectCall() {
        switch (method) {
            case "GET":
                return CallType.GET;
            case "HEAD":
                return CallType.HEAD;
            case "DELETE":
                return CallType.DELETE;
            default:
                return CallType.PUT;
        }
    }

    private boolean hasQuery(String name) {
        for (String param : query.split("&")) {
            if (param.equals(name) || param.startsWith(name + "=")) {
                return true;
            }
        }
        return false;
    }

    private boolean hasHeader(String name) {
        return headers.toLowerCase(Locale.ROOT).contains(name + ":");
    }
}
