package io.stork.store.memory;

import io.stork.store.BucketNotFoundException;
import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.DeleteResult;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.NotModifiedException;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.OperationContext;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.RangeNotSatisfiableException;
import io.stork.store.ReadCondition;
import io.stork.store.StoreApi;
import io.stork.store.StoreDescription;
import io.stork.store.StoreException;
import io.stork.store.StoreIterator;
import io.stork.store.StoreStatistics;
import io.stork.store.UploadStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * An {@link ObjectStore} in memory, with the S3 API's observable behaviour: ETags are the MD5 of the
 * bytes, listings are in key order and paged, creates without overwrite are atomic, conditions on reads
 * are checked before the range, and every method counts the REST call it stands for. For fast unit tests
 * of the layers above (namespace, commits); everything they do is still proven against the real store.
 * Made directly, a store of its own; through {@link MemoryStores} (the {@code memory} API), one per bucket
 * shared in the JVM.
 */
public final class InMemoryObjectStore implements ObjectStore {

    private record Stored(byte[] bytes, String etag, Instant lastModified, Map<String, String> metadata) {

        ObjectInfo info(ObjectKey key) {
            return new ObjectInfo(key, bytes.length, etag, lastModified, metadata);
        }
    }

    private final Map<String, NavigableMap<String, Stored>> buckets = new ConcurrentHashMap<>();
    private final StoreStatistics statistics = StoreStatistics.forClient();
    private final StoreDescription description = new StoreDescription(StoreApi.MEMORY, "this JVM");

    @Override
    public StoreDescription description() {
        return description;
    }

    private NavigableMap<String, Stored> bucket(String operation, String bucket) throws BucketNotFoundException {
        NavigableMap<String, Stored> objects = buckets.get(bucket);
        if (objects == null) {
            throw new BucketNotFoundException(OperationContext.ofBucket(operation, description, bucket),
                    "bucket does not exist", 404, null);
        }
        return objects;
    }

    private OperationContext context(String operation, ObjectKey key) {
        return OperationContext.of(operation, description, key);
    }

    @Override
    public ObjectInfo put(ObjectKey key, PutBody body, PutOptions options) throws IOException {
        byte[] bytes;
        try (InputStream in = body.open()) {
            bytes = in.readAllBytes();
        }
        return store(key, bytes, options);
    }

    private ObjectInfo store(ObjectKey key, byte[] bytes, PutOptions options) throws IOException {
        statistics.recordCall(CallType.PUT, bytes.length, 0, false);
        NavigableMap<String, Stored> objects = bucket("PUT", key.bucket());
        Stored stored = new Stored(bytes.clone(), md5(bytes), Instant.now(), options.userMetadata());
        if (options.ifNotExists()) {
            if (objects.putIfAbsent(key.key(), stored) != null) {
                throw new ObjectExistsException(context("PUT", key), "an object already exists at this key", 412, null);
            }
        } else {
            objects.put(key.key(), stored);
        }
        return stored.info(key);
    }

    @Override
    public UploadStream create(ObjectKey key, PutOptions options) {
        return new UploadStream() {
            private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            private ObjectInfo result;
            private boolean done;

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (done) {
                    throw new IOException(key + ": upload is closed");
                }
                buffer.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                if (!done) {
                    done = true;
                    result = store(key, buffer.toByteArray(), options);
                }
            }

            @Override
            public void abort() {
                done = true;
            }

            @Override
            public ObjectInfo result() {
                return result;
            }

            @Override
            public long peakBufferedBytes() {
                return buffer.size();
            }
        };
    }

    @Override
    public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException {
        Stored stored = bucket("GET", key.bucket()).get(key.key());
        if (stored == null) {
            statistics.recordCall(CallType.GET, 0, 0, true);
            throw new ObjectNotFoundException(context("GET", key), "object not found", 404, null);
        }
        if (!condition.admits(stored.etag)) {
            statistics.recordCall(CallType.GET, 0, 0, condition.match()); // a 304 is an answer, a 412 a failure
            throw condition.match()
                    ? new ObjectChangedException(context("GET", key), "the object is not the version the read asked for",
                            412, null)
                    : new NotModifiedException(context("GET", key), 304);
        }
        long length = stored.bytes.length;
        if (!range.isAll() && range.start() >= length) {
            statistics.recordCall(CallType.GET, 0, 0, true);
            throw new RangeNotSatisfiableException(context("GET", key), "range starts at or past the end of the object",
                    416, null);
        }
        long start = range.isAll() ? 0 : range.start();
        long served = range.isOpenEnded() ? length - start : Math.min(range.length(), length - start);
        statistics.recordCall(CallType.GET, 0, served, false);
        return new ObjectStream(new ByteArrayInputStream(stored.bytes, (int) start, (int) served), stored.info(key),
                start, served);
    }

    @Override
    public ObjectInfo head(ObjectKey key) throws IOException {
        Stored stored = bucket("HEAD", key.bucket()).get(key.key());
        statistics.recordCall(CallType.HEAD, 0, 0, stored == null);
        if (stored == null) {
            throw new ObjectNotFoundException(context("HEAD", key), "object not found", 404, null);
        }
        return stored.info(key);
    }

    /** Pages of the request's size over a snapshot of the keys; one LIST counted per page fetched. */
    @Override
    public StoreIterator<ListEntry> list(ListRequest request) throws IOException {
        NavigableMap<String, Stored> objects = bucket("LIST", request.bucket());
        List<ListEntry> entries = new ArrayList<>();
        String previousPrefix = null;
        for (Map.Entry<String, Stored> e : objects.tailMap(request.prefix(), true).entrySet()) {
            String name = e.getKey();
            if (!name.startsWith(request.prefix())) {
                break;
            }
            if (request.startAfter() != null && name.compareTo(request.startAfter()) <= 0) {
                continue;
            }
            int cut = request.delimiter() == null ? -1 : name.indexOf(request.delimiter(), request.prefix().length());
            if (cut >= 0) {
                String common = name.substring(0, cut + request.delimiter().length());
                if (!common.equals(previousPrefix)) {
                    entries.add(new ListEntry.CommonPrefix(common));
                    previousPrefix = common;
                }
            } else {
                Stored s = e.getValue();
                entries.add(new ListEntry.ListedObject(name, s.bytes.length, s.etag, s.lastModified));
            }
        }
        statistics.recordCall(CallType.LIST, 0, 0, false); // the first page, fetched before returning
        return new StoreIterator<>() {
            private int position;
            private int pagesFetched = 1;

            @Override
            public boolean hasNext() {
                if (position < entries.size() && position / request.pageSize() >= pagesFetched) {
                    pagesFetched++;
                    statistics.recordCall(CallType.LIST, 0, 0, false); // the next page
                }
                return position < entries.size();
            }

            @Override
            public ListEntry next() {
                if (position >= entries.size()) {
                    throw new NoSuchElementException();
                }
                return entries.get(position++);
            }
        };
    }

    @Override
    public void delete(ObjectKey key) throws IOException {
        statistics.recordCall(CallType.DELETE, 0, 0, false);
        bucket("DELETE", key.bucket()).remove(key.key());
    }

    @Override
    public DeleteResult deleteAll(String bucket, Collection<String> keys) throws IOException {
        NavigableMap<String, Stored> objects = bucket("DELETE", bucket);
        int pages = Math.max(1, (keys.size() + 999) / 1000);
        for (int i = 0; i < pages; i++) {
            statistics.recordCall(CallType.BULK_DELETE, 0, 0, false);
        }
        for (String key : keys) {
            objects.remove(key);
        }
        return new DeleteResult(keys.size(), new HashMap<>());
    }

    @Override
    public void copy(ObjectKey source, ObjectKey target) throws IOException {
        statistics.recordCall(CallType.COPY, 0, 0, false);
        Stored stored = bucket("COPY", source.bucket()).get(source.key());
        if (stored == null) {
            throw new ObjectNotFoundException(context("COPY", source), "object not found", 404, null);
        }
        bucket("COPY", target.bucket()).put(target.key(), new Stored(stored.bytes, stored.etag, Instant.now(),
                stored.metadata));
    }

    @Override
    public void createBucket(String bucket) {
        statistics.recordCall(CallType.PUT, 0, 0, false);
        buckets.putIfAbsent(bucket, new ConcurrentSkipListMap<>());
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        statistics.recordCall(CallType.DELETE, 0, 0, false);
        NavigableMap<String, Stored> objects = buckets.get(bucket);
        if (objects != null && !objects.isEmpty()) {
            throw new StoreException(OperationContext.ofBucket("DELETE", description, bucket),
                    "conflict: the bucket is not empty", 409, null);
        }
        buckets.remove(bucket);
    }

    /** Empties the store down to one empty bucket, for {@link MemoryStores}; no call is counted. */
    void reset(String bucket) {
        buckets.keySet().removeIf(name -> !name.equals(bucket));
        buckets.computeIfAbsent(bucket, name -> new ConcurrentSkipListMap<>()).clear();
    }

    @Override
    public boolean supportsConditionalCreate() {
        return true;
    }

    @Override
    public boolean conditionalCreateIsAtomic() {
        return true;
    }

    @Override
    public StoreStatistics statistics() {
        return statistics;
    }

    @Override
    public void close() {
    }

    private static String md5(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no MD5 in this JVM", e);
        }
    }
}
