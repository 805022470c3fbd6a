package io.stork.spark.skipping;

import io.stork.skipping.expr.Predicate;
import org.apache.hadoop.fs.Path;

/**
 * Told, on the driver, of each scan data skipping judged: the dataset and the filter it judged by. Must
 * return at once and make no call: it runs while the query is planned (the query history is one).
 */
@FunctionalInterface
public interface ScanObserver {

    void judged(Path datasetRoot, Predicate normalized);
}
