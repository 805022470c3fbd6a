package io.stork.skipping.spi;

import io.stork.skipping.ColumnStatistics;
import io.stork.skipping.expr.Predicate;

/**
 * One index's data for one column of one part, as read from the manifest. Immutable.
 */
public interface ColumnIndex {

    /** The {@link IndexType#name()} that made it. */
    String type();

    /**
     * False only when no row of the part can make {@code leaf} TRUE. {@code leaf} is a comparison, IN
     * list, prefix or geo box on this index's column(s), in negation normal form: a {@link Predicate.Not}
     * never reaches an index. Answer true for anything not understood: a false negative loses rows.
     */
    boolean mayMatch(Predicate leaf, ColumnStatistics column);

    /**
     * The index as a JSON value in plain Java: {@code Map<String, ?>}, {@code List<?>}, String, Long,
     * Double (finite), Boolean. {@link io.stork.skipping.ValueJson} converts column values.
     */
    Object toJson();
}
