package io.stork.store.s3;

import io.stork.store.CallType;
import io.stork.store.StoreStatistics;
import java.util.Map;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteBucketRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * Counts every HTTP request the SDK sends, at the transport: one count per attempt that went on the
 * wire, which is what the store's access log sees. GET bodies are counted as the caller reads them
 * ({@link S3ObjectStore}), not here, so an abandoned stream counts only the bytes that were read.
 */
final class S3CallCounter implements ExecutionInterceptor {

    private static final ExecutionAttribute<Boolean> SENT = new ExecutionAttribute<>("stork.sent");

    private static final Map<Class<? extends SdkRequest>, CallType> TYPES = Map.ofEntries(
            Map.entry(PutObjectRequest.class, CallType.PUT),
            Map.entry(GetObjectRequest.class, CallType.GET),
            Map.entry(HeadObjectRequest.class, CallType.HEAD),
            Map.entry(ListObjectsV2Request.class, CallType.LIST),
            Map.entry(DeleteObjectRequest.class, CallType.DELETE),
            Map.entry(DeleteObjectsRequest.class, CallType.BULK_DELETE),
            Map.entry(CopyObjectRequest.class, CallType.COPY),
            Map.entry(CreateMultipartUploadRequest.class, CallType.MULTIPART_INITIATE),
            Map.entry(UploadPartRequest.class, CallType.MULTIPART_PART),
            Map.entry(CompleteMultipartUploadRequest.class, CallType.MULTIPART_COMPLETE),
            Map.entry(AbortMultipartUploadRequest.class, CallType.MULTIPART_ABORT),
            Map.entry(CreateBucketRequest.class, CallType.BUCKET_CREATE),
            Map.entry(HeadBucketRequest.class, CallType.BUCKET_HEAD),
            Map.entry(DeleteBucketRequest.class, CallType.BUCKET_DELETE));

    private final StoreStatistics statistics;

    S3CallCounter(StoreStatistics statistics) {
        this.statistics = statistics;
    }

    static CallType typeOf(SdkRequest request) {
        CallType type = TYPES.get(request.getClass());
        if (type == null) {
            throw new IllegalStateException("uncounted S3 request type " + request.getClass().getSimpleName());
        }
        return type;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        attributes.putAttribute(SENT, Boolean.FALSE);
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        attributes.putAttribute(SENT, Boolean.TRUE);
        CallType type = typeOf(context.request());
        SdkHttpResponse response = context.httpResponse();
        long received = type == CallType.GET ? 0 : contentLength(response);
        statistics.recordCall(type, requestLength(context.httpRequest()), received, !response.isSuccessful());
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        // A request that went out but got no HTTP answer (reset, timeout) is still a call on the wire.
        if (Boolean.FALSE.equals(attributes.getAttribute(SENT)) && context.httpRequest().isPresent()) {
            statistics.recordCall(typeOf(context.request()), 0, 0, true);
        }
    }

    private static long requestLength(SdkHttpRequest request) {
        return request.firstMatchingHeader("Content-Length").map(Long::parseLong).orElse(0L);
    }

    private static long contentLength(SdkHttpResponse response) {
        return response.firstMatchingHeader("Content-Length").map(Long::parseLong).orElse(0L);
    }
}
