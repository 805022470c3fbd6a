package io.stork.layout.kdtree;

import io.stork.layout.model.Box;

/** A node of a k-d tree model: a split on one column, or a leaf that is a bucket. */
public sealed interface KdNode permits KdNode.Split, KdNode.Leaf {

    /**
     * Keys whose value on column {@code dim} is below {@code value} go left, the others right (nulls sort
     * first, so they go left of any non-null value).
     */
    record Split(int dim, Object value, KdNode left, KdNode right) implements KdNode {
    }

    /**
     * A bucket: its id, how many sample rows it was built from, and their box (min/max per column, nulls
     * left out; {@code null} when no sample row reached it). Rows routed here later may fall outside the
     * box: the box describes the sample, {@link KdTreeModel#region} the keys the bucket accepts.
     */
    record Leaf(int bucket, long sampleRows, Box box) implements KdNode {
    }
}
