package io.stork.bench.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriceTableTest {

    private final PriceTable aws = PriceTable.load(null);

    @Test
    void defaultTableNamesItsSourceAndDate() {
        assertThat(aws.source()).startsWith("https://aws.amazon.com/s3/pricing");
        assertThat(aws.date()).matches("\\d{4}-\\d{2}-\\d{2}");
    }

    @Test
    void pricesCallsByClassAndBytesByDirection() {
        // 1,000 write-class calls (PUT, COPY, LIST), 1,000 read-class (GET, HEAD), 1,000 free deletes,
        // 1 GB out.
        Map<String, Long> calls = Map.of("PUT", 400L, "COPY", 300L, "LIST", 300L, "GET", 900L, "HEAD", 100L,
                "DELETE", 1000L);
        double cost = aws.cost(calls, 5_000_000_000L, 1_000_000_000L);
        assertThat(cost).isCloseTo(aws.writePer1000() + aws.readPer1000() + aws.outPerGb() + 5 * aws.inPerGb(),
                within(1e-12));
        assertThat(aws.cost(Map.of("DELETE", 5000L, "MULTIPART_ABORT", 10L), 0, 0)).isZero();
    }

    @Test
    void medianAndSpread() {
        Stats stats = Stats.of(List.of(4.0, 1.0, 2.0, 3.0));
        assertThat(stats.median()).isEqualTo(2.5);
        assertThat(stats.spread()).isCloseTo(3 / 2.5, within(1e-12));
        assertThat(Stats.of(List.of(7L, 1L, 3L)).median()).isEqualTo(3.0);
    }
}
