package io.stork.store.swift;

import io.stork.store.AccessDeniedException;
import io.stork.store.AuthenticationException;
import io.stork.store.BucketNotFoundException;
import io.stork.store.ObjectExistsException;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.OperationContext;
import io.stork.store.RangeNotSatisfiableException;
import io.stork.store.StoreException;
import io.stork.store.StoreUnreachableException;
import io.stork.store.TlsFailures;
import io.stork.store.TransientStoreException;
import io.stork.store.UnsupportedStoreOperationException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;

/** Maps Swift answers and transport failures to one-line {@link StoreException}s. */
final class SwiftErrors {

    private SwiftErrors() {
    }

    /** A conditional GET's precondition decided the answer: 304 unchanged, 412 another version. */
    static StoreException conditionFailed(OperationContext context, int status) {
        return status == 304 ? new NotModifiedException(context, status)
                : new ObjectChangedException(context, "the object is not the version the read asked for", status, null);
    }

    /**
     * @param conditional the request carried If-None-Match: * (a 412 then means "exists"; otherwise Swift
     *                    uses 412 for names it cannot store, such as invalid UTF-8)
     */
    static StoreException fromStatus(OperationContext context, int status, String body, boolean conditional) {
        String detail = summary(body);
        switch (status) {
            case 401:
                return new AuthenticationException(context, "credentials rejected", status, null);
            case 403:
                return new AccessDeniedException(context, "access denied", status, null);
            case 404:
                if (context.key() == null || "PUT".equals(context.operation())) {
                    return new BucketNotFoundException(context, "container does not exist", status, null);
                }
                return new ObjectNotFoundException(context, "object not found", status, null);
            case 409:
                return new StoreException(context, "conflict" + (detail.isEmpty() ? "" : ": " + detail)
                        + (context.key() == null ? " (is the container empty?)" : ""), status, null);
            case 412:
                if (conditional) {
                    return new ObjectExistsException(context, "an object already exists at this key", status, null);
                }
                return new StoreException(context, "precondition failed" + (detail.isEmpty() ? "" : ": " + detail),
                        status, null);
            case 413:
                return new StoreException(context, "object too large for one Swift PUT (the store's max_file_size,"
                        + " 5 GiB by default): set a segment size (fs.stork.swift.segment.size) to upload it as a"
                        + " static large object",
                        status, null);
            case 416:
                return new RangeNotSatisfiableException(context, "range starts at or past the end of the object",
                        status, null);
            case 501:
                return new UnsupportedStoreOperationException(context, "not supported by this store's Swift API",
                        status, null);
            default:
                if (status == 429 || status == 498 || status >= 500) {
                    return new TransientStoreException(context,
                            (status == 503 || status == 429 || status == 498 ? "store is throttling or unavailable"
                                    : "store error") + (detail.isEmpty() ? "" : ": " + detail), status, null);
                }
                return new StoreException(context, "request rejected" + (detail.isEmpty() ? "" : ": " + detail),
                        status, null);
        }
    }

    static StoreException fromTransport(OperationContext context, IOException e) {
        return fromTransport(context, e, null);
    }

    /** @param target the URL the request went to (auth or storage URL); null: the store's auth URL */
    static StoreException fromTransport(OperationContext context, IOException e, java.net.URI target) {
        String endpoint = target == null ? context.store().endpoint() : origin(target);
        java.util.Optional<String> tls = TlsFailures.describe(e, endpoint, "fs.stork.swift.auth.url");
        if (tls.isPresent()) {
            // Final, and complete in one line: the JDK's chain of handshake exceptions adds nothing a user acts on.
            return new StoreUnreachableException(context, tls.get(), false, null);
        }
        if (e instanceof HttpConnectTimeoutException) {
            return new StoreUnreachableException(context, "endpoint unreachable: connect timed out", true, e);
        }
        if (e instanceof HttpTimeoutException) {
            return new StoreUnreachableException(context, "timed out waiting for the store", true, e);
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            if (root instanceof ConnectException || root instanceof UnknownHostException) {
                break;
            }
            root = root.getCause();
        }
        if (root instanceof ConnectException) {
            return new StoreUnreachableException(context, "endpoint unreachable: connection refused", false, e);
        }
        if (root instanceof UnknownHostException) {
            return new StoreUnreachableException(context, "endpoint unreachable: unknown host " + root.getMessage(),
                    false, e);
        }
        return new StoreUnreachableException(context, "connection failed: " + summary(String.valueOf(e.getMessage())),
                true, e);
    }

    /** {@code https://host:port} of a URL: where a TLS handshake went. */
    private static String origin(java.net.URI url) {
        return url.getScheme() + "://" + url.getRawAuthority();
    }

    /** The first line of a store's error body, stripped of HTML, at most 200 characters. */
    static String summary(String body) {
        if (body == null) {
            return "";
        }
        String text = body.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").trim();
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
