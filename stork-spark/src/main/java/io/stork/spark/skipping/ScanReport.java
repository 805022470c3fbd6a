package io.stork.spark.skipping;

/**
 * What data skipping did for one listing of a scan: objects and bytes the listing offered, those left to
 * read, and how many had statistics to judge by.
 *
 * @param filter          the filter as skipping understood it ({@code Unknown(...)} parts rule nothing out)
 * @param objectsListed   objects after partition pruning
 * @param bytesListed     their bytes
 * @param objectsRead     objects left after skipping
 * @param bytesRead       their bytes
 * @param withStatistics  listed objects whose current statistics were known (same ETag and length)
 * @param planningNanos   time spent judging
 */
public record ScanReport(String filter, long objectsListed, long bytesListed, long objectsRead, long bytesRead,
                         long withStatistics, long planningNanos) {

    public long objectsSkipped() {
        return objectsListed - objectsRead;
    }

    @Override
    public String toString() {
        return String.format("%d of %d objects read (%,d of %,d bytes), %d with statistics, %.1f ms; filter %s",
                objectsRead, objectsListed, bytesRead, bytesListed, withStatistics, planningNanos / 1e6, filter);
    }
}
