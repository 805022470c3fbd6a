package io.stork.store;

/**
 * A listing of a bucket.
 *
 * @param prefix     only keys starting with it ("" for all)
 * @param delimiter  when set (usually "/"), keys with the delimiter after the prefix are rolled up into
 *                   {@link ListEntry.CommonPrefix} entries; null for a flat listing
 * @param pageSize   keys per LIST call, 1 to 1000 (both APIs cap a page at 1000 by default)
 * @param startAfter only keys after this one, or null
 */
public record ListRequest(String bucket, String prefix, String delimiter, int pageSize, String startAfter) {

    public static final int MAX_PAGE_SIZE = 1000;

    public ListRequest {
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("bucket name is empty");
        }
        prefix = prefix == null ? "" : prefix;
        if (delimiter != null && delimiter.isEmpty()) {
            delimiter = null;
        }
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be 1 to " + MAX_PAGE_SIZE + ": " + pageSize);
        }
    }

    public static ListRequest of(String bucket, String prefix) {
        return new ListRequest(bucket, prefix, null, MAX_PAGE_SIZE, null);
    }

    public ListRequest withDelimiter(String newDelimiter) {
        return new ListRequest(bucket, prefix, newDelimiter, pageSize, startAfter);
    }

    public ListRequest withPageSize(int size) {
        return new ListRequest(bucket, prefix, delimiter, size, startAfter);
    }

    public ListRequest withStartAfter(String key) {
        return new ListRequest(bucket, prefix, delimiter, pageSize, key);
    }
}
