package io.stork.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * The one setting that enables Stork in a Spark session:
 * {@code spark.sql.extensions=io.stork.spark.StorkSparkExtensions}. File writes to {@code stork://} then
 * commit with Stork's protocol (unless the session names another) and report, per part, the record count
 * the manifest carries; reads of {@code stork://} take Delta Lake's time-travel options
 * ({@code versionAsOf}, {@code timestampAsOf}).
 */
public class StorkSparkExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {

    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        extensions.injectPostHocResolutionRule(StorkWriteRule::new);
        extensions.injectResolutionRule(StorkTimeTravelRule::new);
        return BoxedUnit.UNIT;
    }
}
