package io.stork.store.swift;

import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.PutOptions;
import io.stork.store.StoreException;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.function.LongConsumer;

/**
 * The segments of one static large object being uploaded: each a {@link ChunkedPut} of at most the
 * segment size, streamed like a whole object, the next one started when the last is full. Nothing is
 * visible under the object's key until {@link #commit} PUTs the manifest; {@link #abort()} deletes the
 * segments written.
 */
final class SegmentedUpload {

    private final SwiftObjectStore store;
    private final SwiftTransport transport;
    private final SwiftLargeObjects largeObjects;
    private final ObjectKey target;
    private final long segmentSize;
    private final String uploadId = UUID.randomUUID().toString();
    private final List<SwiftLargeObjects.Segment> written = new ArrayList<>();
    private final MessageDigest md5;
    private final LongConsumer released;
    private ChunkedPut current;
    private long inCurrent;

    /** @param md5 a fresh digest to check each segment's ETag against, or null not to check */
    SegmentedUpload(SwiftObjectStore store, SwiftTransport transport, SwiftLargeObjects largeObjects,
                    ObjectKey target, long segmentSize, MessageDigest md5, LongConsumer released) {
        this.store = store;
        this.transport = transport;
        this.largeObjects = largeObjects;
        this.target = target;
        this.segmentSize = segmentSize;
        this.md5 = md5;
        this.released = released;
    }

    /** Bytes the current segment can still take: a buffer handed to {@link #put} never crosses a segment. */
    long room() {
        return segmentSize - inCurrent;
    }

    /** Sends {@code data[0, n)} (owned by the upload afterwards) as the next bytes of the current segment. */
    void put(byte[] data, int n) throws IOException {
        if (n == 0) {
            return;
        }
        if (current == null) {
            startSegment();
        }
        if (md5 != null) {
            md5.update(data, 0, n);
        }
        current.put(ByteBuffer.wrap(data, 0, n));
        inCurrent += n;
        if (inCurrent == segmentSize) {
            endSegment();
        }
    }

    private void startSegment() throws IOException {
        if (written.size() >= SwiftLargeObjects.MAX_SEGMENTS) {
            throw new StoreException(store.context("PUT", target), "object needs more than "
                    + SwiftLargeObjects.MAX_SEGMENTS + " segments of " + segmentSize
                    + " bytes (Swift's max_manifest_segments): raise fs.stork.swift.segment.size", 0, null);
        }
        if (written.isEmpty()) {
            largeObjects.ensureSegmentContainer(target.bucket());
        }
        ObjectKey segment = ObjectKey.of(SwiftLargeObjects.segmentContainer(target.bucket()),
                SwiftLargeObjects.segmentName(target.key(), uploadId, written.size()));
        current = ChunkedPut.start(store, transport, segment, PutOptions.defaults(),
                store.config().uploadBuffers(), released);
        inCurrent = 0;
    }

    private void endSegment() throws IOException {
        HttpResponse<String> answer = current.finish();
        String etag = ObjectInfo.unquoteEtag(answer.headers().firstValue("Etag").orElse(null));
        String name = current.key().key();
        current = null;
        written.add(new SwiftLargeObjects.Segment(name, etag, inCurrent));
        inCurrent = 0;
        if (md5 != null) {
            String expected = HexFormat.of().formatHex(md5.digest());
            if (etag == null || !etag.equalsIgnoreCase(expected)) {
                throw new StoreException(store.context("PUT", target), "segment " + name + " has ETag " + etag
                        + ", not the MD5 " + expected + " of the bytes sent: the upload was corrupted", 0, null);
            }
        }
    }

    /** Ends the last segment and PUTs the manifest: the object exists, whole, when this returns. */
    ObjectInfo commit(long length, PutOptions options) throws IOException {
        if (current != null) {
            endSegment();
        }
        return largeObjects.putManifest(target, written, length, options);
    }

    /** Abandons the segment in flight and deletes those written. Idempotent; never throws. */
    void abort() {
        if (current != null) {
            current.abort();
            current = null;
        }
        largeObjects.deleteSegments(target.bucket(), written);
        written.clear();
    }

    int segments() {
        return written.size() + (current == null ? 0 : 1);
    }
}
