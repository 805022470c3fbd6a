package io.stork.spark.skipping;

import java.util.List;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import scala.Function1;
import scala.Tuple3;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code stork_geo_box(lat, lon, minLat, maxLat, minLon, maxLon)}: TRUE when the point lies in the box
 * (bounds inclusive; a box across the antimeridian is two calls ORed). It expands to the two ranges it
 * means, so Spark evaluates it natively, the formats' own push-down sees it, and data skipping judges it
 * by each object's latitude and longitude bounds.
 */
public final class GeoBoxFunction {

    public static final String NAME = "stork_geo_box";

    private GeoBoxFunction() {
    }

    public static Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>> registration() {
        ExpressionInfo info = new ExpressionInfo(GeoBoxFunction.class.getName(), null, NAME,
                "_FUNC_(lat, lon, minLat, maxLat, minLon, maxLon) - true when (lat, lon) lies in the box, bounds inclusive",
                "", "\n    Examples:\n      > SELECT _FUNC_(46.95, 7.45, 45.8, 47.9, 5.9, 10.5);\n       true\n  ",
                "", "predicate_funcs", "", "", "built-in");
        return new Tuple3<>(FunctionIdentifier.apply(NAME), info, GeoBoxFunction::build);
    }

    static Expression build(Seq<Expression> arguments) {
        List<Expression> a = CollectionConverters.asJava(arguments);
        if (a.size() != 6) {
            throw new IllegalArgumentException(NAME + " takes 6 arguments (lat, lon, minLat, maxLat, minLon, maxLon), not "
                    + a.size());
        }
        return new And(
                new And(new GreaterThanOrEqual(a.get(0), a.get(2)), new LessThanOrEqual(a.get(0), a.get(3))),
                new And(new GreaterThanOrEqual(a.get(1), a.get(4)), new LessThanOrEqual(a.get(1), a.get(5))));
    }
}
