package io.stork.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;

/**
 * The narrow storage interface the rest of Stork depends on: a flat namespace of immutable objects in
 * buckets (S3 buckets, Swift containers). Nothing here pretends to be a file system: no directories, no
 * rename. Each method maps to a small, known number of REST calls, documented per implementation in
 * docs/object-store-clients.md, so the layers above can reason about cost.
 *
 * <p>Implementations are thread-safe. Every method fails with a {@link StoreException} whose one-line
 * message names the operation, the store and the object, and never a secret.
 */
public interface ObjectStore extends Closeable {

    /** What this store is, for messages: API and endpoint, never credentials. */
    StoreDescription description();

    /** Stores an object whose length is known, in one request. The body may be read more than once (retries). */
    ObjectInfo put(ObjectKey key, PutBody body, PutOptions options) throws IOException;

    /**
     * Opens a stream that uploads an object of unknown length with bounded memory. Nothing is visible
     * until {@link UploadStream#close()} succeeds; {@link UploadStream#abort()} or a failure leaves no object.
     */
    UploadStream create(ObjectKey key, PutOptions options) throws IOException;

    /**
     * Opens an object, or a byte range of it, in one GET. The returned stream carries the object's
     * length, ETag, last-modified time and user metadata taken from that GET: no HEAD is needed.
     */
    default ObjectStream get(ObjectKey key, ByteRange range) throws IOException {
        return get(key, range, ReadCondition.NONE);
    }

    /**
     * A GET with a precondition on the object's entity tag, in the same single call: a mismatched
     * {@link ReadCondition#ifMatch} fails with {@link ObjectChangedException}, a matched
     * {@link ReadCondition#ifNoneMatch} with {@link NotModifiedException}.
     */
    ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException;

    /** Returns the object's metadata (one HEAD), or throws {@link ObjectNotFoundException}. */
    ObjectInfo head(ObjectKey key) throws IOException;

    /** Lists lazily: pages are fetched as the iterator advances, one LIST per page. */
    StoreIterator<ListEntry> list(ListRequest request) throws IOException;

    /** Deletes an object. Deleting a missing object is not an error (both APIs make delete idempotent). */
    void delete(ObjectKey key) throws IOException;

    /** Deletes many objects of one bucket with the API's bulk call, in as few requests as it allows. */
    DeleteResult deleteAll(String bucket, Collection<String> keys) throws IOException;

    /** Copies an object inside the store in one call: no bytes pass through the client. */
    void copy(ObjectKey source, ObjectKey target) throws IOException;

    /** Creates a bucket; succeeds if it exists already and belongs to the caller. */
    void createBucket(String bucket) throws IOException;

    /** Deletes an empty bucket; succeeds if it does not exist. */
    void deleteBucket(String bucket) throws IOException;

    /**
     * Whether {@link PutOptions#ifNotExists()} is honoured (an atomic create-if-absent). Callers that need
     * it ask first, rather than spend a call on a request the store will reject.
     */
    default boolean supportsConditionalCreate() {
        return false;
    }

    /**
     * Whether, of concurrent conditional creates of one key, exactly one succeeds. Swift checks each
     * request on its own (two in flight at once can both pass); S3 conditional writes are atomic.
     */
    default boolean conditionalCreateIsAtomic() {
        return false;
    }

    /** The REST calls this client made, by type. */
    StoreStatistics statistics();
}
