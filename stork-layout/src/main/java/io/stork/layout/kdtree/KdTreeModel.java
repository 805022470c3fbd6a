package io.stork.layout.kdtree;

import io.stork.layout.model.Box;
import io.stork.layout.model.Column;
import io.stork.layout.model.HistorySummary;
import io.stork.layout.model.PartitionerModel;
import io.stork.layout.model.Range;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A bucket k-d tree over any number of columns: internal nodes split on one column's value, leaves are the
 * buckets, numbered left to right. Built by {@link KdTreeBuilder}; saved and read by
 * {@link io.stork.layout.json.ModelJson}.
 */
public record KdTreeModel(List<Column> columns, int buckets, KdNode root, HistorySummary history,
                          List<Column> sortColumns) implements PartitionerModel {

    public static final String KIND = "kdtree";

    /** A tree whose buckets are sorted by the key's own column order. */
    public KdTreeModel(List<Column> columns, int buckets, KdNode root, HistorySummary history) {
        this(columns, buckets, root, history, columns);
    }

    public KdTreeModel {
        columns = List.copyOf(columns);
        sortColumns = List.copyOf(sortColumns);
        if (sortColumns.size() != columns.size() || !sortColumns.containsAll(columns)) {
            throw new IllegalArgumentException("a k-d tree sorts its buckets by its key columns "
                    + columns.stream().map(Column::name).toList() + " in some order, not by "
                    + sortColumns.stream().map(Column::name).toList());
        }
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(history, "history");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a k-d tree needs at least one column");
        }
        if (buckets < 1) {
            throw new IllegalArgumentException("a k-d tree needs at least one bucket, not " + buckets);
        }
        List<KdNode.Leaf> leaves = new ArrayList<>();
        collect(root, leaves);
        for (int i = 0; i < leaves.size(); i++) {
            if (leaves.get(i).bucket() != i) {
                throw new IllegalArgumentException("k-d tree leaves must be buckets 0.." + (buckets - 1)
                        + " left to right; leaf " + i + " is bucket " + leaves.get(i).bucket());
            }
        }
        if (leaves.size() != buckets) {
            throw new IllegalArgumentException("a k-d tree of " + buckets + " buckets has " + leaves.size() + " leaves");
        }
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public int bucketOf(Object[] key) {
        return leafOf(columns, root, PartitionerModel.canonicalKey(columns, key));
    }

    /** The bucket of a key already in canonical form, under {@code root}. */
    static int leafOf(List<Column> columns, KdNode root, Object[] canonicalKey) {
        KdNode n = root;
        while (n instanceof KdNode.Split s) {
            n = columns.get(s.dim()).type().compare(canonicalKey[s.dim()], s.value()) < 0 ? s.left() : s.right();
        }
        return ((KdNode.Leaf) n).bucket();
    }

    /** The leaves, bucket order. */
    public List<KdNode.Leaf> leaves() {
        List<KdNode.Leaf> leaves = new ArrayList<>();
        collect(root, leaves);
        return List.copyOf(leaves);
    }

    /** The min/max box of the sample rows of {@code bucket}, or null if none reached it. */
    public Box leafBox(int bucket) {
        return leaves().get(bucket).box();
    }

    /**
     * The keys {@code bucket} accepts, as the splits above it bound them: [lo, hi) per column, open where
     * no split bounds it. Given as closed ranges (the upper end is the next bucket's split value), which
     * is what overlap tests need.
     */
    public Box region(int bucket) {
        Range[] r = new Range[columns.size()];
        Arrays.fill(r, Range.ALL);
        KdNode n = root;
        while (n instanceof KdNode.Split s) {
            Range cur = r[s.dim()];
            boolean left = bucket < firstBucket(s.right());
            r[s.dim()] = left ? new Range(cur.lo(), s.value()) : new Range(s.value(), cur.hi());
            n = left ? s.left() : s.right();
        }
        return Box.of(r);
    }

    private static int firstBucket(KdNode n) {
        while (n instanceof KdNode.Split s) {
            n = s.left();
        }
        return ((KdNode.Leaf) n).bucket();
    }

    /** The leaves under {@code root}, left to right. */
    static List<KdNode.Leaf> leavesOf(KdNode root) {
        List<KdNode.Leaf> leaves = new ArrayList<>();
        collect(root, leaves);
        return leaves;
    }

    private static void collect(KdNode n, List<KdNode.Leaf> out) {
        if (n instanceof KdNode.Split s) {
            collect(s.left(), out);
            collect(s.right(), out);
        } else {
            out.add((KdNode.Leaf) n);
        }
    }
}
