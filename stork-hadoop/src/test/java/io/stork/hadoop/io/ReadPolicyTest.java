package io.stork.hadoop.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.ByteRange;
import org.junit.jupiter.api.Test;

class ReadPolicyTest {

    private final ReadPolicy policy = new ReadPolicy(1024 * 1024, 1024 * 1024, 64 * 1024);

    @Test
    void aSmallObjectIsFetchedWholeWhereverTheFirstReadIs() {
        assertThat(policy.prefetch(300_000, 0)).isEqualTo(ByteRange.of(0, 300_000));
        assertThat(policy.prefetch(300_000, 299_992)).isEqualTo(ByteRange.of(0, 300_000));
        assertThat(policy.prefetch(1024 * 1024, 17)).isEqualTo(ByteRange.of(0, 1024 * 1024));
    }

    @Test
    void aLargerObjectHasItsTailFetchedOnlyByAReadInTheTail() {
        long length = 8L * 1024 * 1024;
        assertThat(policy.prefetch(length, length - 8)).isEqualTo(ByteRange.of(length - 65_536, 65_536));
        assertThat(policy.prefetch(length, length - 65_536)).isEqualTo(ByteRange.of(length - 65_536, 65_536));
        assertThat(policy.prefetch(length, length - 65_537)).isNull();
        assertThat(policy.prefetch(length, 0)).as("a scan from the start reads as usual").isNull();
    }

    @Test
    void anUnknownLengthOrZeroSizesMeanNoPrefetch() {
        assertThat(policy.prefetch(Long.MAX_VALUE, 0)).isNull();
        assertThat(policy.prefetch(0, 0)).isNull();
        ReadPolicy off = new ReadPolicy(0, 0, 0);
        assertThat(off.prefetch(100, 0)).isNull();
        assertThat(off.prefetch(10L << 20, (10L << 20) - 1)).isNull();
        assertThatThrownBy(() -> new ReadPolicy(0, -1, 0)).hasMessageContaining("must not be negative");
    }

    @Test
    void aPartsFooterFromTheManifestSetsTheTailWhenLargerOrAskedFor() {
        assertThat(policy.forPart(0, true)).isSameAs(policy);
        assertThat(policy.forPart(3000, false)).isSameAs(policy); // the default tail holds it and the page indexes
        assertThat(policy.forPart(3000, true).tailSize()).isEqualTo(3000);
        assertThat(policy.forPart(200_000, false).tailSize()).isEqualTo(200_000); // one GET, not two
        assertThat(new ReadPolicy(0, 0, 0).forPart(3000, true).tailSize()).isZero(); // tail reads off stay off
    }
}
