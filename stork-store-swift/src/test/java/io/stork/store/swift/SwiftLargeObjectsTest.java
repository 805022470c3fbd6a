package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.OperationContext;
import io.stork.store.StoreApi;
import io.stork.store.StoreDescription;
import io.stork.store.ObjectKey;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SwiftLargeObjectsTest {

    @Test
    void aSegmentNamesTheKeyItBelongsToAndNothingElseDoes() {
        String upload = UUID.randomUUID().toString();
        assertThat(SwiftLargeObjects.ownerKey(SwiftLargeObjects.segmentName("t/part-0", upload, 7))).isEqualTo("t/part-0");
        assertThat(SwiftLargeObjects.ownerKey(SwiftLargeObjects.segmentName("a/b/c d/ü", upload, 999)))
                .isEqualTo("a/b/c d/ü");
        // Names Stork did not make (another tool's segments, a key under the segment's path) are not swept.
        assertThat(SwiftLargeObjects.ownerKey("t/part-0/slo/1700000000.000000/1048576/00000001")).isNull();
        assertThat(SwiftLargeObjects.ownerKey("t/part-0/" + upload + "/7")).isNull();
        assertThat(SwiftLargeObjects.ownerKey(upload + "/00000001")).isNull();
        assertThat(SwiftLargeObjects.ownerKey("00000001")).isNull();
    }

    @Test
    void theSweepListsUnderTheKeysCommonPrefix() {
        assertThat(SwiftLargeObjects.commonPrefix(List.of("t/part-0", "t/part-1", "t/part-10"))).isEqualTo("t/part-");
        assertThat(SwiftLargeObjects.commonPrefix(List.of("a/x", "b/x"))).isEmpty();
        assertThat(SwiftLargeObjects.commonPrefix(List.of("only"))).isEqualTo("only");
        // A prefix never ends inside a character that takes two UTF-16 units.
        assertThat(SwiftLargeObjects.commonPrefix(List.of("k\uD83D\uDE00", "k\uD83D\uDE01"))).isEqualTo("k");
    }

    @Test
    void aSegmentSizeIsZeroOrOneMiBToFiveGiB() {
        SwiftStoreConfig base = SwiftStoreConfig.of(URI.create("http://127.0.0.1:1/auth/v1.0"), "u", "k");
        assertThat(base.segmentSize()).as("off by default").isZero();
        assertThat(base.withSegmentSize(1024 * 1024).segmentSize()).isEqualTo(1024 * 1024);
        assertThat(base.withSegmentSize(5L << 30).segmentSize()).isEqualTo(5L << 30);
        assertThatThrownBy(() -> base.withSegmentSize(1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fs.stork.swift.segment.size");
        assertThatThrownBy(() -> base.withSegmentSize((5L << 30) + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anObjectTooLargeForOnePutIsRefusedWithTheSettingThatUploadsIt() {
        OperationContext context = OperationContext.of("PUT",
                new StoreDescription(StoreApi.SWIFT, "http://127.0.0.1:1/auth/v1.0"), ObjectKey.of("b", "k"));
        assertThat(SwiftErrors.fromStatus(context, 413, "<html>Request Entity Too Large</html>", false).getMessage())
                .contains("413").contains("fs.stork.swift.segment.size").doesNotContain("\n");
    }
}
