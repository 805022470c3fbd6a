package io.stork.store.s3;

import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.DeleteResult;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.OperationContext;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.StoreApi;
import io.stork.store.StoreDescription;
import io.stork.store.StoreIterator;
import io.stork.store.StoreStatistics;
import io.stork.store.UploadStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * {@link ObjectStore} over the S3 API with the AWS SDK for Java v2. Calls per operation: put = 1 PUT;
 * get = 1 GET; head = 1 HEAD; list = 1 LIST per page; delete = 1 DELETE; deleteAll = 1 POST ?delete per
 * 1,000 keys; copy = 1 COPY (PUT with x-amz-copy-source); create = 1 PUT below the part size, otherwise
 * initiate + 1 per part + complete.
 */
public final class S3ObjectStore implements ObjectStore {

    private static final int MAX_KEYS_PER_BULK_DELETE = 1000;
    private static final AtomicInteger UPLOAD_THREADS = new AtomicInteger();

    private final S3Client s3;
    /** Made for this store and closed with it: the SDK's client leaves a given provider open. */
    private final software.amazon.awssdk.auth.credentials.AwsCredentialsProvider credentials;
    private final S3StoreConfig config;
    private final StoreDescription description;
    private final StoreStatistics statistics;
    private final ExecutorService uploadPool;
    private final io.stork.store.RetryPolicy partRetries;

    public S3ObjectStore(S3StoreConfig config) {
        this(config, io.stork.store.RetryPolicy.DEFAULT);
    }

    /** @param partRetries retries of a streaming upload's parts, whose bytes only this client holds */
    public S3ObjectStore(S3StoreConfig config, io.stork.store.RetryPolicy partRetries) {
        this.config = config;
        this.partRetries = partRetries;
        this.description = new StoreDescription(StoreApi.S3, config.endpoint().toString());
        this.statistics = StoreStatistics.forClient();
        this.credentials = io.stork.store.s3.credentials.S3Credentials.provider(config.accessKey(), config.secretKey(),
                config.credentials());
        this.s3 = S3ClientFactory.create(config, new S3CallCounter(statistics), credentials);
        this.uploadPool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stork-s3-upload-" + UPLOAD_THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public StoreDescription description() {
        return description;
    }

    @Override
    public StoreStatistics statistics() {
        return statistics;
    }

    S3StoreConfig config() {
        return config;
    }

    OperationContext context(String operation, ObjectKey key) {
        return OperationContext.of(operation, description, key);
    }

    @Override
    public ObjectInfo put(ObjectKey key, PutBody body, PutOptions options) throws IOException {
        OperationContext context = context("PUT", key);
        String type = options.contentType() == null ? "application/octet-stream" : options.contentType();
        RequestBody requestBody = body.bytesOrNull() != null
                ? RequestBody.fromContentProvider(() -> new java.io.ByteArrayInputStream(body.bytesOrNull()),
                        body.length(), type)
                : RequestBody.fromContentProvider(() -> openBody(body), body.length(), type);
        return putObject(context, key, options, requestBody, body.length());
    }

    ObjectInfo putObject(OperationContext context, ObjectKey key, PutOptions options, RequestBody requestBody,
                         long length) throws IOException {
        PutObjectRequest.Builder request = PutObjectRequest.builder()
                .bucket(key.bucket())
                .key(key.key())
                .contentType(options.contentType())
                .metadata(options.userMetadata());
        if (options.ifNotExists()) {
            request.ifNoneMatch("*");
        }
        try {
            PutObjectResponse response = s3.putObject(request.build(), requestBody);
            return new ObjectInfo(key, length, ObjectInfo.unquoteEtag(response.eTag()), null, options.userMetadata());
        } catch (SdkException e) {
            throw S3Errors.translate(context, e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** As configured: the S3 API has no way to ask, and a probe would cost calls and leave an object. */
    @Override
    public boolean supportsConditionalCreate() {
        return config.conditionalWrites();
    }

    @Override
    public boolean conditionalCreateIsAtomic() {
        return config.conditionalWrites();
    }

    @Override
    public UploadStream create(ObjectKey key, PutOptions options) {
        return new S3UploadStream(this, s3, key, options, uploadPool, partRetries);
    }

    @Override
    public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws IOException {
        GetObjectRequest.Builder builder = GetObjectRequest.builder()
                .bucket(key.bucket())
                .key(key.key())
                .range(range.httpHeader());
        if (!condition.isNone()) {
            if (condition.match()) {
                builder.ifMatch(condition.headerValue());
            } else {
                builder.ifNoneMatch(condition.headerValue());
            }
        }
        GetObjectRequest request = builder.build();
        ResponseInputStream<GetObjectResponse> body;
        try {
            body = s3.getObject(request);
        } catch (SdkException e) {
            throw S3Errors.translate(context("GET", key), e);
        }
        GetObjectResponse response = body.response();
        long served = response.contentLength();
        long total = totalLength(response.contentRange(), served);
        long start = range.isAll() ? 0 : range.start();
        ObjectInfo info = new ObjectInfo(key, total, ObjectInfo.unquoteEtag(response.eTag()),
                response.lastModified(), response.metadata());
        return new ObjectStream(new CountingBody(body, served), info, start, served);
    }

    /** {@code Content-Range: bytes 0-9/100} gives the object's length on a ranged GET. */
    static long totalLength(String contentRange, long served) {
        if (contentRange == null) {
            return served;
        }
        int slash = contentRange.lastIndexOf('/');
        String total = slash < 0 ? "*" : contentRange.substring(slash + 1).trim();
        return total.equals("*") ? served : Long.parseLong(total);
    }

    @Override
    public ObjectInfo head(ObjectKey key) throws IOException {
        try {
            HeadObjectResponse response = s3.headObject(b -> b.bucket(key.bucket()).key(key.key()));
            return new ObjectInfo(key, response.contentLength(), ObjectInfo.unquoteEtag(response.eTag()),
                    response.lastModified(), response.metadata());
        } catch (SdkException e) {
            throw S3Errors.translate(context("HEAD", key), e);
        }
    }

    @Override
    public StoreIterator<ListEntry> list(ListRequest request) {
        return new S3Listing(s3, request, OperationContext.ofBucket("LIST", description, request.bucket()));
    }

    @Override
    public void delete(ObjectKey key) throws IOException {
        try {
            s3.deleteObject(b -> b.bucket(key.bucket()).key(key.key()));
        } catch (SdkException e) {
            throw S3Errors.translate(context("DELETE", key), e);
        }
    }

    @Override
    public DeleteResult deleteAll(String bucket, Collection<String> keys) throws IOException {
        List<String> all = new ArrayList<>(keys);
        Map<String, String> failures = new HashMap<>();
        int deleted = 0;
        for (int from = 0; from < all.size(); from += MAX_KEYS_PER_BULK_DELETE) {
            List<ObjectIdentifier> batch = all.subList(from, Math.min(all.size(), from + MAX_KEYS_PER_BULK_DELETE))
                    .stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList();
            try {
                DeleteObjectsResponse response = s3.deleteObjects(b -> b.bucket(bucket)
                        .delete(Delete.builder().objects(batch).quiet(true).build()));
                for (S3Error error : response.errors()) {
                    failures.put(error.key(), error.code() + ": " + error.message());
                }
                deleted += batch.size() - response.errors().size();
            } catch (SdkException e) {
                throw S3Errors.translate(OperationContext.ofBucket("BULK_DELETE", description, bucket), e);
            }
        }
        return new DeleteResult(deleted, failures);
    }

    @Override
    public void copy(ObjectKey source, ObjectKey target) throws IOException {
        try {
            s3.copyObject(b -> b.sourceBucket(source.bucket()).sourceKey(source.key())
                    .destinationBucket(target.bucket()).destinationKey(target.key()));
        } catch (SdkException e) {
            throw S3Errors.translate(new OperationContext("COPY", description, target.bucket(),
                    target.key() + " from " + source), e);
        }
    }

    @Override
    public void createBucket(String bucket) throws IOException {
        try {
            s3.createBucket(b -> b.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException e) {
            // Already ours: creating is idempotent for the caller.
        } catch (SdkException e) {
            throw S3Errors.translate(OperationContext.ofBucket("CREATE_BUCKET", description, bucket), e);
        }
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        try {
            s3.deleteBucket(b -> b.bucket(bucket));
        } catch (NoSuchBucketException e) {
            // Gone already.
        } catch (SdkException e) {
            if (e instanceof software.amazon.awssdk.services.s3.model.S3Exception s3e && s3e.statusCode() == 404) {
                return;
            }
            throw S3Errors.translate(OperationContext.ofBucket("DELETE_BUCKET", description, bucket), e);
        }
    }

    @Override
    public void close() {
        uploadPool.shutdownNow();
        s3.close();
        // Whether the client closes a provider it was given differs by SDK version: close it here, once.
        io.stork.store.s3.credentials.S3Credentials.close(credentials);
    }

    /**
     * Counts GET body bytes as they are read, and on an early close aborts the connection instead of
     * draining the rest of a possibly huge body.
     */
    private final class CountingBody extends FilterInputStream {
        private final ResponseInputStream<GetObjectResponse> response;
        private long remaining;

        CountingBody(ResponseInputStream<GetObjectResponse> response, long length) {
            super(response);
            this.response = response;
            this.remaining = length;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            counted(skipped);
            return skipped;
        }

        private void counted(long n) {
            remaining -= n;
            statistics.recordBytes(CallType.GET, 0, n);
        }

        @Override
        public void close() throws IOException {
            if (remaining > 0) {
                response.abort();
            }
            super.close();
        }
    }

    private static InputStream openBody(PutBody body) {
        try {
            return body.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
