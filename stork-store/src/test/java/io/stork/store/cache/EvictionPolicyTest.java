package io.stork.store.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.cache.EvictionPolicy.Candidate;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvictionPolicyTest {

    private static List<String> order(EvictionPolicy policy, long maxBytes, List<Candidate<String>> candidates) {
        return policy.order(candidates, maxBytes).stream().map(Candidate::key).toList();
    }

    // key, size, insertedAt, usedAt, uses
    private static final List<Candidate<String>> FILES = List.of(
            new Candidate<>("old-once", 10, 1, 1, 1),
            new Candidate<>("old-twice", 10, 2, 9, 2),
            new Candidate<>("new-once", 10, 8, 8, 1),
            new Candidate<>("hot", 10, 3, 7, 5));

    @Test
    void lruFifoAndLfuOrderAsTheirNamesSay() {
        assertThat(order(EvictionPolicy.LRU, 100, FILES)).containsExactly("old-once", "hot", "new-once", "old-twice");
        assertThat(order(EvictionPolicy.FIFO, 100, FILES)).containsExactly("old-once", "old-twice", "hot", "new-once");
        assertThat(order(EvictionPolicy.LFU, 100, FILES)).containsExactly("old-once", "new-once", "old-twice", "hot");
    }

    @Test
    void slruEvictsBlocksUsedOnceBeforeBlocksUsedAgain() {
        assertThat(order(EvictionPolicy.SLRU, 100, FILES)).containsExactly("old-once", "new-once", "hot", "old-twice");
    }

    @Test
    void slruDemotesProtectedBlocksPastItsShareAmongTheOnesOnProbation() {
        // A bound of 25: the protected share (80%) holds 20 bytes, so one of the three protected files is
        // demoted: the least recently used of them, which then goes by its recency among the others.
        List<Candidate<String>> files = List.of(
                new Candidate<>("a", 10, 1, 5, 2),
                new Candidate<>("b", 10, 2, 6, 3),
                new Candidate<>("c", 10, 3, 7, 2),
                new Candidate<>("once", 10, 4, 4, 1),
                new Candidate<>("once-later", 10, 8, 8, 1));
        assertThat(order(EvictionPolicy.SLRU, 25, files)).containsExactly("once", "a", "once-later", "b", "c");
    }

    @Test
    void namesArePoliciesOrAClearError() {
        assertThat(EvictionPolicy.of(" slru ")).isEqualTo(EvictionPolicy.SLRU);
        assertThat(EvictionPolicy.of("LRU")).isEqualTo(EvictionPolicy.LRU);
        assertThatThrownBy(() -> EvictionPolicy.of("random")).hasMessageContaining("random")
                .hasMessageContaining("lru, slru");
    }

    @Test
    void theHistoryRemembersTheLatestEvictionsOnceEach() {
        EvictionHistory<String> history = new EvictionHistory<>(2);
        history.evicted("a");
        history.evicted("b");
        history.evicted("c"); // "a" is forgotten: the bound is two names
        assertThat(history.recall("a")).isFalse();
        assertThat(history.recall("b")).isTrue();
        assertThat(history.recall("b")).as("recalled once: it is cached again").isFalse();
        assertThat(history.recall("c")).isTrue();
    }
}
