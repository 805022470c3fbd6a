package io.stork.store.cache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The order in which a full block cache gives up its files. The default is chosen by measurement
 * ({@code bash scripts/bench-cache.sh --eviction}, docs/benchmarks/cache-eviction.md): the cache and that
 * simulation call the same {@link #order}.
 */
public enum EvictionPolicy {
    /** Least recently used first. */
    LRU,
    /** Oldest written first, whatever its use since. */
    FIFO,
    /** Least often used first, the least recently used of those first. */
    LFU,
    /**
     * Segmented LRU: a block used once is on probation, one used again is protected, with protected blocks
     * at most {@value #PROTECTED_PERCENT}% of the bound (the least recently used past that share are
     * demoted to probation). Blocks on probation go first, least recently used first, then protected ones:
     * a one-off scan evicts its own blocks before the ones queries keep coming back to.
     */
    SLRU;

    static final int PROTECTED_PERCENT = 80;

    /** What a policy knows of one cached file. Stamps only compare with each other. */
    public record Candidate<K>(K key, long size, long insertedAt, long usedAt, int uses) {
    }

    public static EvictionPolicy of(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown eviction policy '" + name + "' (lru, slru, fifo or lfu)");
        }
    }

    /** {@code candidates} in the order they are to go from a cache bounded at {@code maxBytes}. */
    public <K> List<Candidate<K>> order(Collection<Candidate<K>> candidates, long maxBytes) {
        List<Candidate<K>> list = new ArrayList<>(candidates);
        Comparator<Candidate<K>> byUse = Comparator.comparingLong(Candidate::usedAt);
        switch (this) {
            case FIFO:
                list.sort(Comparator.comparingLong(Candidate::insertedAt));
                return list;
            case LFU:
                list.sort(Comparator.<Candidate<K>>comparingInt(Candidate::uses).thenComparing(byUse));
                return list;
            case SLRU:
                return segmented(list, maxBytes, byUse);
            default:
                list.sort(byUse);
                return list;
        }
    }

    private static <K> List<Candidate<K>> segmented(List<Candidate<K>> list, long maxBytes,
                                                    Comparator<Candidate<K>> byUse) {
        List<Candidate<K>> probation = new ArrayList<>();
        List<Candidate<K>> protectedOnes = new ArrayList<>();
        for (Candidate<K> c : list) {
            (c.uses() >= 2 ? protectedOnes : probation).add(c);
        }
        protectedOnes.sort(byUse.reversed()); // newest first: they keep their place within the share
        long share = maxBytes * PROTECTED_PERCENT / 100;
        long kept = 0;
        List<Candidate<K>> keep = new ArrayList<>();
        List<Candidate<K>> over = new ArrayList<>();
        for (Candidate<K> c : protectedOnes) {
            if (kept + c.size() <= share) {
                keep.add(c);
                kept += c.size();
            } else {
                over.add(c);
            }
        }
        // Protected blocks past the share are demoted: they go among the blocks on probation, by recency.
        probation.addAll(over);
        probation.sort(byUse);
        keep.sort(byUse);
        List<Candidate<K>> order = new ArrayList<>(list.size());
        order.addAll(probation);
        order.addAll(keep);
        return order;
    }
}
