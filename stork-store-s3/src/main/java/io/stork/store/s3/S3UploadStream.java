package io.stork.store.s3;

import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.OperationContext;
import io.stork.store.PutOptions;
import io.stork.store.RetryPolicy;
import io.stork.store.UploadStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * A streaming upload over S3: a single PUT if the object fits in one part, otherwise a multipart upload
 * whose parts go up in the background, at most {@code maxPartsInFlight} at a time. A writer blocks while
 * that many parts are in flight, so the stream holds at most {@code (maxPartsInFlight + 1) * partSize}
 * bytes whatever the object size. Each part is retried from its in-memory buffer; any failure aborts the
 * multipart upload so that no object and no orphaned parts remain.
 */
final class S3UploadStream extends UploadStream {

    private static final Logger LOG = LoggerFactory.getLogger(S3UploadStream.class);
    private static final int INITIAL_BUFFER = 64 * 1024;

    private final S3ObjectStore store;
    private final S3Client s3;
    private final ObjectKey key;
    private final PutOptions options;
    private final ExecutorService pool;
    private final int partSize;
    private final Semaphore partsInFlight;
    private final RetryPolicy partRetries;
    private final List<CompletableFuture<CompletedPart>> parts = new ArrayList<>();
    private final AtomicLong buffered = new AtomicLong();
    private final AtomicLong peakBuffered = new AtomicLong();

    private byte[] buffer;
    private int filled;
    private long length;
    private String uploadId;
    private boolean closed;
    private boolean aborted;
    private ObjectInfo result;

    S3UploadStream(S3ObjectStore store, S3Client s3, ObjectKey key, PutOptions options, ExecutorService pool,
                   RetryPolicy partRetries) {
        this.partRetries = partRetries;
        this.store = store;
        this.s3 = s3;
        this.key = key;
        this.options = options;
        this.pool = pool;
        this.partSize = (int) store.config().partSize();
        this.partsInFlight = new Semaphore(store.config().maxPartsInFlight());
        this.buffer = new byte[Math.min(INITIAL_BUFFER, partSize)];
        holdBytes(buffer.length);
    }

    @Override
    public void write(byte[] data, int offset, int count) throws IOException {
        checkWritable();
        while (count > 0) {
            if (filled == buffer.length && buffer.length < partSize) {
                grow();
            }
            int n = Math.min(count, buffer.length - filled);
            System.arraycopy(data, offset, buffer, filled, n);
            filled += n;
            offset += n;
            count -= n;
            length += n;
            if (filled == partSize) {
                submitPart();
            }
        }
    }

    private void grow() {
        int size = (int) Math.min((long) buffer.length * 2, partSize);
        holdBytes(size - buffer.length);
        buffer = Arrays.copyOf(buffer, size);
    }

    private void checkWritable() throws IOException {
        if (closed || aborted) {
            throw new IOException("upload of " + store.description().locate(key.bucket(), key.key())
                    + " is " + (aborted ? "aborted" : "closed"));
        }
        for (CompletableFuture<CompletedPart> part : parts) {
            if (part.isCompletedExceptionally()) {
                failAndAbort(awaitFailure(part));
            }
        }
    }

    private void submitPart() throws IOException {
        if (uploadId == null) {
            uploadId = initiate();
        }
        try {
            partsInFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failAndAbort(new InterruptedIOException("interrupted while waiting for a part slot"));
        }
        int partNumber = parts.size() + 1;
        byte[] data = buffer;
        int size = filled;
        String id = uploadId;
        parts.add(CompletableFuture.supplyAsync(() -> uploadPart(id, partNumber, data, size), pool)
                .whenComplete((part, error) -> {
                    releaseBytes(data.length);
                    partsInFlight.release();
                }));
        // The next buffer is allocated only after a slot was free: this is what bounds memory.
        buffer = new byte[partSize];
        filled = 0;
        holdBytes(partSize);
    }

    private String initiate() throws IOException {
        try {
            return s3.createMultipartUpload(b -> b.bucket(key.bucket()).key(key.key())
                    .contentType(options.contentType()).metadata(options.userMetadata())).uploadId();
        } catch (SdkException e) {
            throw S3Errors.translate(store.context("MULTIPART_INITIATE", key), e);
        }
    }

    private CompletedPart uploadPart(String id, int partNumber, byte[] data, int size) {
        OperationContext context = store.context("MULTIPART_PART " + partNumber, key);
        try {
            return partRetries.run(() -> {
                try {
                    String etag = s3.uploadPart(b -> b.bucket(key.bucket()).key(key.key()).uploadId(id)
                                    .partNumber(partNumber).contentLength((long) size),
                            RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data, 0, size), size,
                                    "application/octet-stream")).eTag();
                    return CompletedPart.builder().partNumber(partNumber).eTag(etag).build();
                } catch (SdkException e) {
                    throw S3Errors.translate(context, e);
                }
            });
        } catch (IOException e) {
            throw new CompletionException(e);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        checkWritable();
        closed = true;
        try {
            result = uploadId == null ? putSingle() : completeMultipart();
        } finally {
            releaseBytes(buffer.length);
            buffer = null;
        }
    }

    private ObjectInfo putSingle() throws IOException {
        byte[] data = buffer;
        int size = filled;
        RequestBody body = RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data, 0, size), size,
                options.contentType() == null ? "application/octet-stream" : options.contentType());
        return store.putObject(store.context("PUT", key), key, options, body, size);
    }

    private ObjectInfo completeMultipart() throws IOException {
        try {
            if (filled > 0) {
                submitPart();
            }
            List<CompletedPart> done = new ArrayList<>(parts.size());
            for (CompletableFuture<CompletedPart> part : parts) {
                done.add(await(part));
            }
            CompleteMultipartUploadRequest.Builder request = CompleteMultipartUploadRequest.builder()
                    .bucket(key.bucket()).key(key.key()).uploadId(uploadId)
                    .multipartUpload(b -> b.parts(done));
            if (options.ifNotExists()) {
                // Honoured on multipart completion by stores that reject conditional single PUTs.
                request.ifNoneMatch("*");
            }
            CompleteMultipartUploadResponse response;
            try {
                response = s3.completeMultipartUpload(request.build());
            } catch (SdkException e) {
                throw S3Errors.translate(store.context("MULTIPART_COMPLETE", key), e);
            }
            return new ObjectInfo(key, length, ObjectInfo.unquoteEtag(response.eTag()), null, options.userMetadata());
        } catch (IOException | RuntimeException e) {
            abortQuietly();
            throw e;
        }
    }

    private CompletedPart await(CompletableFuture<CompletedPart> part) throws IOException {
        try {
            return part.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for parts of " + key);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
            throw cause instanceof IOException io ? io : new IOException(cause);
        }
    }

    private IOException awaitFailure(CompletableFuture<CompletedPart> part) {
        try {
            await(part);
            return new IOException("part upload failed");
        } catch (IOException e) {
            return e;
        }
    }

    private void failAndAbort(IOException failure) throws IOException {
        abortQuietly();
        throw failure;
    }

    @Override
    public void abort() {
        if (closed && result != null) {
            return;
        }
        abortQuietly();
    }

    private void abortQuietly() {
        if (aborted) {
            return;
        }
        aborted = true;
        // Let parts in flight finish or fail before the abort, so none lands after it.
        for (CompletableFuture<CompletedPart> part : parts) {
            try {
                part.join();
            } catch (RuntimeException ignored) {
                // The part failed or was cancelled: either way it is no longer in flight.
            }
        }
        if (uploadId != null) {
            try {
                s3.abortMultipartUpload(b -> b.bucket(key.bucket()).key(key.key()).uploadId(uploadId));
            } catch (SdkException e) {
                LOG.warn("Could not abort multipart upload of {}: {}", key,
                        S3Errors.translate(store.context("MULTIPART_ABORT", key), e).getMessage());
            }
        }
    }

    @Override
    public ObjectInfo result() {
        if (result == null) {
            throw new IllegalStateException("upload of " + key + " is not committed");
        }
        return result;
    }

    @Override
    public long peakBufferedBytes() {
        return peakBuffered.get();
    }

    private void holdBytes(long n) {
        long now = buffered.addAndGet(n);
        peakBuffered.accumulateAndGet(now, Math::max);
    }

    private void releaseBytes(long n) {
        buffered.addAndGet(-n);
    }
}
