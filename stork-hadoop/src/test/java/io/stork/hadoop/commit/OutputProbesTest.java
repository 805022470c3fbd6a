package io.stork.hadoop.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutputProbesTest {

    @Test
    void anAbsenceSeenIsRememberedForItsKeyUntilSomethingIsWrittenThere() {
        OutputProbes probes = new OutputProbes();
        probes.existenceChecked("t/out", false);
        assertThat(probes.seenAbsentWithin("t/out", Duration.ofMinutes(1))).isTrue();
        assertThat(probes.seenAbsentWithin("t/other", Duration.ofMinutes(1))).isFalse();
        assertThat(probes.seenAbsentWithin("t/out", Duration.ZERO.minusNanos(1))).as("too old").isFalse();
        probes.written("t/out/part-0");
        assertThat(probes.seenAbsentWithin("t/out", Duration.ofMinutes(1))).isFalse();
        probes.existenceChecked("t/again", false);
        probes.existenceChecked("t/again", true);
        assertThat(probes.seenAbsentWithin("t/again", Duration.ofMinutes(1))).isFalse();
    }

    @Test
    void aDeclaredAbsenceEndsWhenSomethingIsWrittenBelowIt() {
        OutputProbes probes = new OutputProbes();
        probes.declareAbsent("t/out/.spark-staging-3");
        assertThat(probes.declaredAbsent("t/out/.spark-staging-3")).isTrue();
        assertThat(probes.declaredAbsent("t/out")).isFalse();
        probes.written("t/out/.spark-staging-3/k=1/part-0");
        assertThat(probes.declaredAbsent("t/out/.spark-staging-3")).isFalse();
    }
}
