package io.stork.manifest.segment;

import java.io.Serializable;
import java.util.Objects;

/**
 * Where a part is kept: position {@code ordinal} of {@code segment}. A manifest names the segment instead
 * of repeating the part; its statistics are row {@code ordinal} of the segment's block.
 */
public record SegmentRef(Segment segment, int ordinal) implements Serializable {

    public SegmentRef {
        Objects.requireNonNull(segment, "segment");
        if (ordinal < 0 || ordinal >= segment.partCount()) {
            throw new IllegalArgumentException("ordinal " + ordinal + " outside " + segment);
        }
    }
}
