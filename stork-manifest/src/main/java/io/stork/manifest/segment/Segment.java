package io.stork.manifest.segment;

import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * An immutable object of a dataset that holds many of its parts in binary form, with their statistics as
 * one columnar block ({@code <dataset>/_stork/segments/<name>}). Written once, before the manifest that
 * first names it; named by every later manifest that still lists one of its parts, as the part's
 * {@link SegmentRef}. Equal by name: names are unique (generation, job and a counter).
 */
public final class Segment implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final long length;
    private final int partCount;
    private final byte[] statistics;
    /** Views derived from the block (a statistics table), made once per segment and shared by generations. */
    private final transient Map<String, Object> derived = new ConcurrentHashMap<>();

    /**
     * @param statistics the parts' statistics as one block of {@link StatisticsBlocks#codec()}, or null when
     *                   they are kept as JSON with each part
     */
    public Segment(String name, long length, int partCount, byte[] statistics) {
        if (name == null || name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("bad segment name '" + name + "'");
        }
        if (length < 0 || partCount < 0) {
            throw new IllegalArgumentException("segment " + name + ": negative length or part count");
        }
        this.name = name;
        this.length = length;
        this.partCount = partCount;
        this.statistics = statistics;
    }

    public String name() {
        return name;
    }

    /** Bytes of the object in the store. */
    public long length() {
        return length;
    }

    public int partCount() {
        return partCount;
    }

    /** The columnar statistics block, or null (statistics are with each part as JSON). */
    public byte[] statistics() {
        return statistics;
    }

    /** A view of this segment computed once (by name) and kept as long as the segment is. */
    @SuppressWarnings("unchecked")
    public <T> T derived(String key, Function<Segment, T> compute) {
        Map<String, Object> map = derived;
        if (map == null) { // deserialized: nothing cached
            return compute.apply(this);
        }
        return (T) map.computeIfAbsent(key, k -> compute.apply(this));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Segment s && s.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "segment " + name + " (" + partCount + " parts, " + length + " bytes)";
    }
}
