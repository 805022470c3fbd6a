package io.stork.store.s3;

import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectInfo;
import io.stork.store.OperationContext;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.NoSuchElementException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/** ListObjectsV2 pages fetched one at a time as the iterator advances; a failed page is fetched again. */
final class S3Listing implements StoreIterator<ListEntry> {

    private final S3Client s3;
    private final ListRequest request;
    private final OperationContext context;
    private final Deque<ListEntry> page = new ArrayDeque<>();
    private String continuationToken;
    private boolean lastPageFetched;

    S3Listing(S3Client s3, ListRequest request, OperationContext context) {
        this.s3 = s3;
        this.request = request;
        this.context = context;
    }

    @Override
    public boolean hasNext() throws IOException {
        while (page.isEmpty() && !lastPageFetched) {
            fetchPage();
        }
        return !page.isEmpty();
    }

    @Override
    public ListEntry next() throws IOException {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return page.removeFirst();
    }

    private void fetchPage() throws IOException {
        ListObjectsV2Request.Builder call = ListObjectsV2Request.builder()
                .bucket(request.bucket())
                .prefix(request.prefix().isEmpty() ? null : request.prefix())
                .delimiter(request.delimiter())
                .maxKeys(request.pageSize());
        if (continuationToken != null) {
            call.continuationToken(continuationToken);
        } else if (request.startAfter() != null) {
            call.startAfter(request.startAfter());
        }
        ListObjectsV2Response response;
        try {
            response = s3.listObjectsV2(call.build());
        } catch (SdkException e) {
            throw S3Errors.translate(context, e);
        }
        // S3 returns objects and common prefixes in separate lists; merge them back into key order.
        List<ListEntry> entries = new ArrayList<>(response.keyCount() == null ? 16 : response.keyCount());
        response.contents().forEach(o -> entries.add(new ListEntry.ListedObject(o.key(), o.size(),
                ObjectInfo.unquoteEtag(o.eTag()), o.lastModified())));
        response.commonPrefixes().forEach(p -> entries.add(new ListEntry.CommonPrefix(p.prefix())));
        entries.sort(Comparator.comparing(ListEntry::name));
        page.addAll(entries);
        continuationToken = response.nextContinuationToken();
        lastPageFetched = !Boolean.TRUE.equals(response.isTruncated()) || continuationToken == null;
    }
}
