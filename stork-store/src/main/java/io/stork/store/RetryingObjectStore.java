package io.stork.store;

import java.io.IOException;
import java.util.Collection;
import java.util.NoSuchElementException;

/**
 * Retries idempotent calls of the store it wraps on throttling, 5xx answers and dropped connections.
 *
 * <p>Retried: put of a known-length body (it can be re-read, and a repeated PUT leaves the same object),
 * get (the opening GET, not a failure mid-body, which the reader above handles by re-opening at its
 * position), head, each listing page, delete, bulk delete, copy, bucket calls. Not retried: a
 * conditional create (a retry after a lost answer would see its own object and report it exists), and
 * streaming uploads as a whole, which the clients retry per part where the bytes are still in memory.
 * Everything else (description, flags, statistics, close) is forwarded by {@link ForwardingObjectStore}.
 */
public final class RetryingObjectStore extends ForwardingObjectStore {

    private final RetryPolicy policy;

    public RetryingObjectStore(ObjectStore delegate, RetryPolicy policy) {
        super(delegate);
        this.policy = policy;
    }

    @Override
    public ObjectInfo put(ObjectKey key, PutBody body, PutOptions options) throws IOException {
        if (options.ifNotExists()) {
            return delegate().put(key, body, options);
        }
        return policy.run(() -> delegate().put(key, body, options));
    }

    @Override
    public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException {
        return policy.run(() -> delegate().get(key, range, condition));
    }

    @Override
    public ObjectInfo head(ObjectKey key) throws IOException {
        return policy.run(() -> delegate().head(key));
    }

    @Override
    public StoreIterator<ListEntry> list(ListRequest request) throws IOException {
        StoreIterator<ListEntry> pages = policy.run(() -> delegate().list(request));
        return new StoreIterator<>() {
            @Override
            public boolean hasNext() throws IOException {
                return policy.run(pages::hasNext);
            }

            @Override
            public ListEntry next() throws IOException {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return pages.next();
            }

            @Override
            public void close() {
                pages.close();
            }
        };
    }

    @Override
    public void delete(ObjectKey key) throws IOException {
        policy.run(() -> {
            delegate().delete(key);
            return null;
        });
    }

    @Override
    public DeleteResult deleteAll(String bucket, Collection<String> keys) throws IOException {
        return policy.run(() -> delegate().deleteAll(bucket, keys));
    }

    @Override
    public void copy(ObjectKey source, ObjectKey target) throws IOException {
        policy.run(() -> {
            delegate().copy(source, target);
            return null;
        });
    }

    @Override
    public void createBucket(String bucket) throws IOException {
        policy.run(() -> {
            delegate().createBucket(bucket);
            return null;
        });
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        policy.run(() -> {
            delegate().deleteBucket(bucket);
            return null;
        });
    }
}
