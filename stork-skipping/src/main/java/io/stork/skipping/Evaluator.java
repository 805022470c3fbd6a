package io.stork.skipping;

import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.And;
import io.stork.skipping.expr.Predicate.Comparison;
import io.stork.skipping.expr.Predicate.GeoBox;
import io.stork.skipping.expr.Predicate.In;
import io.stork.skipping.expr.Predicate.IsNotNull;
import io.stork.skipping.expr.Predicate.IsNull;
import io.stork.skipping.expr.Predicate.Not;
import io.stork.skipping.expr.Predicate.Op;
import io.stork.skipping.expr.Predicate.Or;
import io.stork.skipping.expr.Predicate.StartsWith;
import io.stork.skipping.expr.Predicate.Unknown;
import io.stork.skipping.spi.ColumnIndex;

/**
 * Answers "may this part hold a row that makes the predicate TRUE?" from its statistics. False only when
 * the statistics prove no row can; everything not understood (a column without statistics, a literal of
 * another type, an unknown predicate) answers true. Negations are first pushed down to the leaves
 * ({@link #normalize}), so bounds and indexes only ever see positive leaves.
 */
public final class Evaluator {

    private Evaluator() {
    }

    public static boolean mayMatch(Predicate predicate, PartStatistics part) {
        return may(normalize(predicate), part);
    }

    /** As {@link #mayMatch}, for a predicate already in {@link #normalize negation normal form}. */
    public static boolean mayMatchNormalized(Predicate normalized, PartStatistics part) {
        return may(normalized, part);
    }

    /** The columns a predicate names (lower case). */
    public static java.util.Set<String> columns(Predicate p) {
        java.util.Set<String> names = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        collectColumns(p, names);
        return names;
    }

    private static void collectColumns(Predicate p, java.util.Set<String> names) {
        if (p instanceof And a) {
            collectColumns(a.left(), names);
            collectColumns(a.right(), names);
        } else if (p instanceof Or o) {
            collectColumns(o.left(), names);
            collectColumns(o.right(), names);
        } else if (p instanceof Not n) {
            collectColumns(n.child(), names);
        } else if (p instanceof Comparison c) {
            names.add(c.column());
        } else if (p instanceof In in) {
            names.add(in.column());
        } else if (p instanceof IsNull n) {
            names.add(n.column());
        } else if (p instanceof IsNotNull n) {
            names.add(n.column());
        } else if (p instanceof StartsWith sw) {
            names.add(sw.column());
        } else if (p instanceof GeoBox g) {
            names.add(g.latitude());
            names.add(g.longitude());
        }
    }

    /** Negation normal form under SQL's three-valued logic (a row is kept only when the predicate is TRUE). */
    public static Predicate normalize(Predicate p) {
        if (p instanceof And a) {
            return new And(normalize(a.left()), normalize(a.right()));
        }
        if (p instanceof Or o) {
            return new Or(normalize(o.left()), normalize(o.right()));
        }
        if (!(p instanceof Not not)) {
            return p;
        }
        Predicate c = not.child();
        if (c instanceof Not inner) {
            return normalize(inner.child());
        }
        if (c instanceof And a) {
            return new Or(normalize(new Not(a.left())), normalize(new Not(a.right())));
        }
        if (c instanceof Or o) {
            return new And(normalize(new Not(o.left())), normalize(new Not(o.right())));
        }
        if (c instanceof Comparison cmp) {
            return new Comparison(cmp.column(), cmp.op().negate(), cmp.literal());
        }
        if (c instanceof In in) {
            return new In(in.column(), in.values(), !in.negated());
        }
        if (c instanceof IsNull n) {
            return new IsNotNull(n.column());
        }
        if (c instanceof IsNotNull n) {
            return new IsNull(n.column());
        }
        return Unknown.INSTANCE; // NOT of a prefix, a box, or of something unknown
    }

    private static boolean may(Predicate p, PartStatistics part) {
        if (part.rows() == 0) {
            return false;
        }
        if (p instanceof And a) {
            return may(a.left(), part) && may(a.right(), part) && GeoConjunction.allows(a, part);
        }
        if (p instanceof Or o) {
            return may(o.left(), part) || may(o.right(), part);
        }
        if (p instanceof IsNull n) {
            return part.column(n.column()).map(c -> c.nullCount() > 0).orElse(true);
        }
        if (p instanceof IsNotNull n) {
            return part.column(n.column()).map(c -> c.nullCount() < part.rows()).orElse(true);
        }
        if (p instanceof Comparison cmp) {
            return part.column(cmp.column()).map(c -> comparison(cmp, c, part.rows())).orElse(true);
        }
        if (p instanceof In in) {
            return part.column(in.column()).map(c -> in(in, c, part.rows())).orElse(true);
        }
        if (p instanceof StartsWith sw) {
            return part.column(sw.column()).map(c -> startsWith(sw, c, part.rows())).orElse(true);
        }
        if (p instanceof GeoBox box) {
            return geoBox(box, part);
        }
        return true;
    }

    private static boolean comparison(Comparison cmp, ColumnStatistics c, long rows) {
        if (!c.type().javaType().isInstance(cmp.literal())) {
            return true;
        }
        if (c.nullCount() >= rows) {
            return false;
        }
        if (!Bounds.comparison(cmp.op(), Values.canonical(cmp.literal()), c)) {
            return false;
        }
        return indexesAllow(cmp, c);
    }

    private static boolean in(In in, ColumnStatistics c, long rows) {
        for (Object v : in.values()) {
            if (!c.type().javaType().isInstance(v)) {
                return true;
            }
        }
        if (c.nullCount() >= rows) {
            return false;
        }
        if (in.negated()) {
            return Bounds.notIn(in.values(), c) && indexesAllow(in, c);
        }
        for (Object v : in.values()) {
            Comparison eq = new Comparison(in.column(), Op.EQ, Values.canonical(v));
            if (Bounds.comparison(Op.EQ, eq.literal(), c) && indexesAllow(eq, c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean startsWith(StartsWith sw, ColumnStatistics c, long rows) {
        if (c.type() != ColumnType.STRING) {
            return true;
        }
        if (c.nullCount() >= rows) {
            return false;
        }
        return Bounds.startsWith(sw.prefix(), c) && indexesAllow(sw, c);
    }

    private static boolean geoBox(GeoBox box, PartStatistics part) {
        var lat = part.column(box.latitude());
        if (lat.isPresent() && !indexesAllow(box, lat.get())) {
            return false;
        }
        Predicate ranges = new And(
                new And(new Comparison(box.latitude(), Op.GT_EQ, box.minLatitude()),
                        new Comparison(box.latitude(), Op.LT_EQ, box.maxLatitude())),
                new And(new Comparison(box.longitude(), Op.GT_EQ, box.minLongitude()),
                        new Comparison(box.longitude(), Op.LT_EQ, box.maxLongitude())));
        return may(ranges, part);
    }

    private static boolean indexesAllow(Predicate leaf, ColumnStatistics c) {
        for (ColumnIndex index : c.indexes().values()) {
            if (!index.mayMatch(leaf, c)) {
                return false;
            }
        }
        return true;
    }
}
