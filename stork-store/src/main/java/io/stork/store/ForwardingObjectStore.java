package io.stork.store;

import java.io.IOException;
import java.util.Collection;
import java.util.Objects;

/**
 * A store that forwards every call to another: the base of decorators (retries, the block cache, tests'
 * counting and fault-injecting stores), which override only the calls they change. Like Guava's
 * {@code Forwarding*} classes and Trino's file-system decorators, it keeps a method added to
 * {@link ObjectStore} from being silently answered by an interface default in one decorator and forwarded
 * in another: it is forwarded here once (ObjectStoreForwardingTest checks that every method is).
 */
public abstract class ForwardingObjectStore implements ObjectStore {

    private final ObjectStore delegate;

    protected ForwardingObjectStore(ObjectStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store calls go to. */
    protected final ObjectStore delegate() {
        return delegate;
    }

    @Override
    public StoreDescription description() {
        return delegate.description();
    }

    @Override
    public ObjectInfo put(ObjectKey key, PutBody body, PutOptions options) throws IOException {
        return delegate.put(key, body, options);
    }

    @Override
    public UploadStream create(ObjectKey key, PutOptions options) throws IOException {
        return delegate.create(key, options);
    }

    /** Forwarded as the two-argument call, so that a decorator of the three-argument one sees every GET. */
    @Override
    public ObjectStream get(ObjectKey key, ByteRange range) throws IOException {
        return get(key, range, ReadCondition.NONE);
    }

    @Override
    public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException {
        return delegate.get(key, range, condition);
    }

    @Override
    public ObjectInfo head(ObjectKey key) throws IOException {
        return delegate.head(key);
    }

    @Override
    public StoreIterator<ListEntry> list(ListRequest request) throws IOException {
        return delegate.list(request);
    }

    @Override
    public void delete(ObjectKey key) throws IOException {
        delegate.delete(key);
    }

    @Override
    public DeleteResult deleteAll(String bucket, Collection<String> keys) throws IOException {
        return delegate.deleteAll(bucket, keys);
    }

    @Override
    public void copy(ObjectKey source, ObjectKey target) throws IOException {
        delegate.copy(source, target);
    }

    @Override
    public void createBucket(String bucket) throws IOException {
        delegate.createBucket(bucket);
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        delegate.deleteBucket(bucket);
    }

    @Override
    public boolean supportsConditionalCreate() {
        return delegate.supportsConditionalCreate();
    }

    @Override
    public boolean conditionalCreateIsAtomic() {
        return delegate.conditionalCreateIsAtomic();
    }

    @Override
    public StoreStatistics statistics() {
        return delegate.statistics();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
