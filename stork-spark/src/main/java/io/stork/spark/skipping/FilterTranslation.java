package io.stork.spark.skipping;

import io.stork.skipping.ColumnType;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.expr.Predicate.Op;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.BinaryComparison;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.InSet;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.expressions.StartsWith;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A scan's filters (Catalyst expressions, as Spark hands them to a file index) as skipping's
 * {@link Predicate}: comparisons of a column with a literal, {@code IN}, {@code IS [NOT] NULL}, string
 * prefixes, and AND/OR/NOT of those. Anything else, or any doubt (a cast around the column, a string
 * column with a collation other than binary, a literal of another type), becomes
 * {@link Predicate.Unknown}, which rules nothing out: a filter is never guessed.
 */
public final class FilterTranslation {

    private FilterTranslation() {
    }

    /** The conjunction of {@code filters}. */
    public static Predicate translate(List<Expression> filters) {
        Predicate result = null;
        for (Expression filter : filters) {
            Predicate p = translate(filter);
            result = result == null ? p : new Predicate.And(result, p);
        }
        return result == null ? Predicate.Unknown.INSTANCE : result;
    }

    public static Predicate translate(Expression e) {
        if (e instanceof And and) {
            return new Predicate.And(translate(and.left()), translate(and.right()));
        }
        if (e instanceof Or or) {
            return new Predicate.Or(translate(or.left()), translate(or.right()));
        }
        if (e instanceof Not not) {
            return new Predicate.Not(translate(not.child()));
        }
        if (e instanceof IsNull isNull && column(isNull.child()) != null) {
            return new Predicate.IsNull(column(isNull.child()).name());
        }
        if (e instanceof IsNotNull isNotNull && column(isNotNull.child()) != null) {
            return new Predicate.IsNotNull(column(isNotNull.child()).name());
        }
        if (e instanceof EqualNullSafe eq) {
            return equalNullSafe(eq);
        }
        if (e instanceof BinaryComparison cmp) {
            return comparison(cmp);
        }
        if (e instanceof In in) {
            return in(in);
        }
        if (e instanceof InSet inSet) {
            return inSet(inSet);
        }
        if (e instanceof StartsWith sw) {
            AttributeReference col = column(sw.left());
            if (col != null && sw.right() instanceof Literal lit && lit.value() instanceof UTF8String prefix) {
                return new Predicate.StartsWith(col.name(), prefix.toString());
            }
        }
        return new Predicate.Unknown(e.sql());
    }

    private static Predicate comparison(BinaryComparison cmp) {
        Op op = op(cmp);
        if (op == null) {
            return new Predicate.Unknown(cmp.sql());
        }
        AttributeReference col = column(cmp.left());
        Expression other = cmp.right();
        if (col == null) {
            col = column(cmp.right());
            other = cmp.left();
            op = flip(op);
        }
        Object value = col == null ? null : literal(other, col.dataType());
        if (value == null) {
            return new Predicate.Unknown(cmp.sql());
        }
        return new Predicate.Comparison(col.name(), op, value);
    }

    private static Predicate equalNullSafe(EqualNullSafe eq) {
        AttributeReference col = column(eq.left());
        Expression other = eq.right();
        if (col == null) {
            col = column(eq.right());
            other = eq.left();
        }
        if (col != null && other instanceof Literal lit && lit.value() == null) {
            return new Predicate.IsNull(col.name());
        }
        Object value = col == null ? null : literal(other, col.dataType());
        return value == null ? new Predicate.Unknown(eq.sql()) : new Predicate.Comparison(col.name(), Op.EQ, value);
    }

    private static Predicate in(In in) {
        AttributeReference col = column(in.value());
        if (col == null) {
            return new Predicate.Unknown(in.sql());
        }
        List<Object> values = new ArrayList<>();
        for (Expression item : CollectionConverters.asJava(in.list())) {
            if (item instanceof Literal lit && lit.value() == null) {
                continue; // x IN (.., NULL) is TRUE exactly where x IN (..) is
            }
            Object value = literal(item, col.dataType());
            if (value == null) {
                return new Predicate.Unknown(in.sql());
            }
            values.add(value);
        }
        return new Predicate.In(col.name(), values, false);
    }

    private static Predicate inSet(InSet inSet) {
        AttributeReference col = column(inSet.child());
        ColumnType kind = col == null ? null : SparkValues.kind(col.dataType());
        if (kind == null || !binaryCollation(col.dataType())) {
            return new Predicate.Unknown(inSet.sql());
        }
        List<Object> values = new ArrayList<>();
        for (Object raw : CollectionConverters.asJava(inSet.hset())) {
            if (raw == null) {
                continue;
            }
            Object value = SparkValues.literal(raw, col.dataType(), kind);
            if (value == null) {
                return new Predicate.Unknown(inSet.sql());
            }
            values.add(value);
        }
        return new Predicate.In(col.name(), values, false);
    }

    /** A column of the relation, read directly (no cast, no nested field), of a kind statistics cover. */
    private static AttributeReference column(Expression e) {
        if (e instanceof AttributeReference a && SparkValues.kind(a.dataType()) != null && binaryCollation(a.dataType())) {
            return a;
        }
        return null;
    }

    /** A literal of the column's own type as a canonical value; null if it is none (or is SQL NULL). */
    private static Object literal(Expression e, DataType columnType) {
        if (!(e instanceof Literal lit) || lit.value() == null) {
            return null;
        }
        boolean sameType = lit.dataType().sameType(columnType)
                || (lit.dataType() instanceof org.apache.spark.sql.types.DecimalType
                        && columnType instanceof org.apache.spark.sql.types.DecimalType);
        if (!sameType || !binaryCollation(lit.dataType())) {
            return null;
        }
        return SparkValues.literal(lit.value(), lit.dataType(), SparkValues.kind(columnType));
    }

    private static boolean binaryCollation(DataType type) {
        return !(type instanceof StringType s) || s.isUTF8BinaryCollation();
    }

    private static Op op(BinaryComparison cmp) {
        if (cmp instanceof EqualTo) {
            return Op.EQ;
        }
        if (cmp instanceof LessThan) {
            return Op.LT;
        }
        if (cmp instanceof LessThanOrEqual) {
            return Op.LT_EQ;
        }
        if (cmp instanceof GreaterThan) {
            return Op.GT;
        }
        if (cmp instanceof GreaterThanOrEqual) {
            return Op.GT_EQ;
        }
        return null;
    }

    private static Op flip(Op op) {
        return switch (op) {
            case LT -> Op.GT;
            case LT_EQ -> Op.GT_EQ;
            case GT -> Op.LT;
            case GT_EQ -> Op.LT_EQ;
            default -> op;
        };
    }
}
