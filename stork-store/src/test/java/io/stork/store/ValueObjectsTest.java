package io.stork.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueObjectsTest {

    @Test
    void byteRangesRenderHttpRangeHeaders() {
        assertThat(ByteRange.all().httpHeader()).isNull();
        assertThat(ByteRange.of(0, 1).httpHeader()).isEqualTo("bytes=0-0");
        assertThat(ByteRange.of(10, 5).httpHeader()).isEqualTo("bytes=10-14");
        assertThat(ByteRange.from(7).httpHeader()).isEqualTo("bytes=7-");
        assertThat(ByteRange.from(0).isAll()).isTrue();
        assertThatThrownBy(() -> ByteRange.of(-1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ByteRange.of(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysAndRequestsRejectBadInputWithClearMessages() {
        assertThatThrownBy(() -> ObjectKey.of("", "k")).hasMessageContaining("bucket name is empty");
        assertThatThrownBy(() -> ObjectKey.of("a/b", "k")).hasMessageContaining("contains '/'");
        assertThatThrownBy(() -> ObjectKey.of("b", "")).hasMessageContaining("object key is empty");
        assertThatThrownBy(() -> ListRequest.of("b", "").withPageSize(1001)).hasMessageContaining("1 to 1000");
        assertThat(ObjectInfo.unquoteEtag("\"abc\"")).isEqualTo("abc");
    }

    @Test
    void snapshotsSubtractAndPrintInAStableOrder() {
        StoreStatistics stats = StoreStatistics.forClient();
        StatisticsSnapshot before = stats.snapshot();
        stats.recordCall(CallType.GET, 0, 100, false);
        stats.recordCall(CallType.PUT, 50, 0, false);
        stats.recordCall(CallType.PUT, 50, 0, true);
        stats.recordBytes(CallType.GET, 0, 23);
        StatisticsSnapshot delta = stats.snapshot().minus(before);
        assertThat(delta.calls()).isEqualTo(Map.of(CallType.PUT, 2L, CallType.GET, 1L));
        assertThat(delta.failures()).isEqualTo(Map.of(CallType.PUT, 1L));
        assertThat(delta.totalBytesSent()).isEqualTo(100);
        assertThat(delta.totalBytesReceived()).isEqualTo(123);
        assertThat(delta.callsByType()).isEqualTo("PUT=2 GET=1");
        assertThat(StoreStatistics.processWide().snapshot().calls(CallType.PUT)).isGreaterThanOrEqualTo(2);
    }
}
