package io.stork.store.s3;

import io.stork.store.AccessDeniedException;
import io.stork.store.AuthenticationException;
import io.stork.store.BucketNotFoundException;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.OperationContext;
import io.stork.store.RangeNotSatisfiableException;
import io.stork.store.StoreException;
import io.stork.store.StoreUnreachableException;
import io.stork.store.TlsFailures;
import io.stork.store.TransientStoreException;
import io.stork.store.UnsupportedStoreOperationException;
import io.stork.store.s3.credentials.S3Credentials;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Turns SDK exceptions into Stork's one-line {@link StoreException}s; never copies request headers. */
final class S3Errors {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(S3Errors.class);

    private S3Errors() {
    }

    static IOException translate(OperationContext context, SdkException e) {
        if (e instanceof S3Exception s3) {
            return fromResponse(context, s3);
        }
        if (e instanceof AbortedException || Thread.currentThread().isInterrupted()) {
            InterruptedIOException interrupted = new InterruptedIOException(context + ": interrupted");
            interrupted.initCause(e);
            return interrupted;
        }
        return fromClientFailure(context, e);
    }

    private static StoreException fromResponse(OperationContext context, S3Exception e) {
        int status = e.statusCode();
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        String storeMessage = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
        String detail = code == null ? "" : ": " + code + (storeMessage == null ? "" : " (" + oneLine(storeMessage) + ")");
        switch (status) {
            case 404:
                if ("NoSuchBucket".equals(code) || context.key() == null) {
                    return new BucketNotFoundException(context, "bucket does not exist", status, e);
                }
                return new ObjectNotFoundException(context, "object not found", status, e);
            case 401:
                return new AuthenticationException(context, "credentials rejected" + detail, status, e);
            case 403:
                if ("InvalidAccessKeyId".equals(code) || "SignatureDoesNotMatch".equals(code)
                        || code == null && "HEAD".equals(context.operation())) {
                    return new AuthenticationException(context,
                            "credentials rejected (wrong access key or secret)" + (code == null ? "" : ": " + code),
                            status, e);
                }
                return new AccessDeniedException(context, "access denied" + detail, status, e);
            case 304:
                return new NotModifiedException(context, status);
            case 412:
                if ("GET".equals(context.operation())) {
                    return new ObjectChangedException(context, "the object is not the version the read asked for",
                            status, e);
                }
                return new ObjectExistsException(context, "an object already exists at this key", status, e);
            case 416:
                return new RangeNotSatisfiableException(context, "range starts at or past the end of the object",
                        status, e);
            case 501:
                return new UnsupportedStoreOperationException(context, "not supported by this store's S3 API" + detail,
                        status, e);
            case 400:
                if ("AuthorizationHeaderMalformed".equals(code) && storeMessage != null
                        && storeMessage.contains("region")) {
                    // The request was signed for another region than the store's.
                    return new StoreException(context, "request rejected" + detail + ": set fs.stork.region (or"
                            + " fs.stork.bucket." + context.bucket() + ".region) to the store's region", status, e);
                }
                return new StoreException(context, "request rejected" + detail, status, e);
            default:
                if (status == 429 || status >= 500) {
                    return new TransientStoreException(context,
                            (status == 503 || status == 429 ? "store is throttling or unavailable" : "store error")
                                    + detail, status, e);
                }
                return new StoreException(context, "request rejected" + detail, status, e);
        }
    }

    private static StoreException fromClientFailure(OperationContext context, SdkException e) {
        java.util.Optional<String> tls = TlsFailures.describe(e, context.store().endpoint(), "fs.stork.endpoint");
        if (tls.isPresent()) {
            // Final, and complete in one line: the SDK's chain of handshake exceptions adds nothing a user acts on.
            LOG.debug("{}: {}", context, tls.get(), e);
            return new StoreUnreachableException(context, tls.get(), false, null);
        }
        Throwable cause = rootIo(e);
        if (cause instanceof ConnectException || cause instanceof NoRouteToHostException) {
            return new StoreUnreachableException(context, "endpoint unreachable: connection refused", false, e);
        }
        if (cause instanceof UnknownHostException) {
            return new StoreUnreachableException(context, "endpoint unreachable: unknown host " + cause.getMessage(),
                    false, e);
        }
        if (cause instanceof SocketTimeoutException) {
            return new StoreUnreachableException(context, "timed out waiting for the store", true, e);
        }
        if (cause instanceof IOException) {
            return new StoreUnreachableException(context,
                    "connection failed: " + oneLine(String.valueOf(cause.getMessage())), true, e);
        }
        String message = String.valueOf(e.getMessage());
        if (message.startsWith(S3Credentials.MISSING)) { // already one line, naming what was tried
            return new AuthenticationException(context, message, 0, null);
        }
        if (message.contains("Unable to load credentials")) {
            return new AuthenticationException(context, S3Credentials.MISSING + ": " + oneLine(message), 0, null);
        }
        if (e instanceof SdkClientException && e.retryable()) {
            return new StoreUnreachableException(context, oneLine(message), true, e);
        }
        return new StoreException(context, "client error: " + oneLine(message), 0, e);
    }

    private static Throwable rootIo(Throwable e) {
        Throwable found = null;
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof IOException) {
                found = t;
                if (t instanceof ConnectException || t instanceof UnknownHostException
                        || t instanceof SocketTimeoutException || t instanceof SocketException) {
                    return t;
                }
            }
        }
        return found;
    }

    static String oneLine(String text) {
        String line = text.replace('\n', ' ').replace('\r', ' ').trim();
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
