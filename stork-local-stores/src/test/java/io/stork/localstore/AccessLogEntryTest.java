package io.stork.localstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.store.CallType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Classification of access-log lines, on lines of the shape the local store writes. */
class AccessLogEntryTest {

    private static CallType classify(String method, String path, String headers) {
        String line = "proxy-access: STORK-ACCESS " + method + " " + path + " 200 5 10 - 1.0 1.1 tx1 ua " + headers;
        return AccessLogEntry.parse(line).orElseThrow().callType();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "GET|/auth/v1.0|-|AUTH",
        "PUT|/v1/AUTH_test/c/a%2520b|-|PUT",
        "PUT|/v1/AUTH_test/c/o|X-Copy-From:%20/c/x|COPY",
        "COPY|/v1/AUTH_test/c/o|-|COPY",
        "GET|/v1/AUTH_test/c%3Fformat%3Djson%26limit%3D1000|-|LIST",
        "PUT|/v1/AUTH_test/c|-|BUCKET_CREATE",
        "POST|/v1/AUTH_test%3Fbulk-delete|-|BULK_DELETE",
        "HEAD|/v1/AUTH_test/c/o|-|HEAD",
        "DELETE|/v1/AUTH_test/c/o|-|DELETE",
        "GET|/bucket/key|-|GET",
        "PUT|/bucket/key|X-Amz-Copy-Source:%20/bucket/src|COPY",
        "POST|/bucket/key%3Fuploads|-|MULTIPART_INITIATE",
        "PUT|/bucket/key%3FpartNumber%3D1%26uploadId%3Dx|-|MULTIPART_PART",
        "POST|/bucket/key%3FuploadId%3Dx|-|MULTIPART_COMPLETE",
        "DELETE|/bucket/key%3FuploadId%3Dx|-|MULTIPART_ABORT",
        "POST|/bucket%3Fdelete|-|BULK_DELETE",
        "GET|/bucket%3Flist-type%3D2%26prefix%3Da|-|LIST",
        "HEAD|/bucket|-|BUCKET_HEAD",
    })
    void classifiesBothApis(String method, String path, String headers, CallType expected) {
        assertThat(classify(method, path, headers)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "GET|200|SSC|true",
        "GET|404|SSC|false",
        "GET|200|-|false",
        "HEAD|200|SSC|false",
    })
    void serverSideCopyReadsAreTheCopyMiddlewaresSuccessfulGets(String method, int status, String source,
                                                                 boolean expected) {
        String line = "proxy-access: STORK-ACCESS " + method + " /v1/AUTH_test/c/src " + status + " - 50000 " + source
                + " 1.0 1.1 tx1 ua -";
        AccessLogEntry entry = AccessLogEntry.parse(line).orElseThrow();
        assertThat(entry.serverSideCopyRead()).isEqualTo(expected);
        assertThat(entry.bytesSent()).isEqualTo(50000);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "GET|/key|Host:%20b1.stork.localhost:8080|b1|/b1/key|GET",
        "PUT|/dir/key|X-Amz-Copy-Source:%20/b1/src%0AHost:%20b1.stork.localhost:8080|b1|/b1/dir/key|COPY",
        "GET|/%3Flist-type%3D2|Host:%20b1.stork.localhost|b1|/b1|LIST",
        "PUT|/|Host:%20b1.stork.localhost:8080|b1|/b1|BUCKET_CREATE",
        "GET|/b1/key|Host:%20127.0.0.1:8080||/b1/key|GET",
        "GET|/b1/key|Host:%20stork.localhost:8080||/b1/key|GET",
    })
    void virtualHostedRequestsAreCountedUnderTheBucketTheirHostNames(String method, String path, String headers,
                                                                     String bucket, String pathStyle, CallType type) {
        String line = "proxy-access: STORK-ACCESS " + method + " " + path + " 200 5 10 - 1.0 1.1 tx1 ua " + headers;
        AccessLogEntry entry = AccessLogEntry.parse(line, "stork.localhost").orElseThrow();
        assertThat(entry.virtualHostBucket()).isEqualTo(bucket);
        assertThat(entry.path()).isEqualTo(pathStyle);
        assertThat(entry.callType()).isEqualTo(type);
    }
}
