package io.stork.bench.layout;

import static io.stork.bench.layout.LayoutReport.fmt;

import io.stork.bench.layout.LayoutWriter.Written;
import java.util.List;
import java.util.Locale;

/** The layout report's fixed text: what was written, how it was measured, what the ratios mean. */
final class ReportText {

    private ReportText() {
    }

    static String setup(LayoutOptions o, long rows, List<Written> written) {
        long noneBytes = written.stream().filter(w -> w.layout().equals("none")).mapToLong(Written::bytes).findFirst()
                .orElse(0);
        return String.format(Locale.ROOT, """
                - Data: GridPocket-style readings (`GridPocketGenerator`, seed %d): %,d meters × %d days of 15-minute \
                readings = %,d rows (date, index, sumHC, sumHP, type, vid, size, temp, city, region, lat, lon), \
                %s MiB as Parquet in arrival order. One batch: every layout holds all rows in n objects, n = %s \
                (the paper's 32, 64 and 128 partitions). `--paper` sets the paper's size (1,000,000 meters × 91 \
                days, 8.7 billion rows, about 1 TB as CSV): for a cluster and its disks, not for this machine.
                - Layouts, the same rows in each: Stork Parquet (statistics: min/max and null counts of every \
                column, in the manifest) in arrival order (`repartitionByRange(n, date, vid)`: n runs of time, \
                as n writers of one batch would cut it), laid out by a latitude/longitude grid (`StorkLayouts.grid`, \
                precision 0 and 1, cells along a Hilbert curve), by a k-d tree on (lat, lon), by a k-d tree on \
                (date, lat, lon) without history, and by one built with a query history of %,d past box queries \
                (%d each of 5, 10 and 20 km, centred on the other half of the meters than the measuring queries; \
                `QueryRecord`s made from `GeoQueries` directly); rows sorted by key within each bucket (the \
                default). Delta Lake 4.1.0 through S3A: the same rows in arrival order into n files, then \
                `OPTIMIZE … ZORDER BY (lat, lon)`, and a table created `CLUSTER BY (lat, lon)` (liquid \
                clustering), the same n files appended, then `OPTIMIZE`; both with \
                `spark.databricks.delta.optimize.maxFileSize` = table size / n, so that both aim at n files \
                (the objects each produced are in the write table). Delta's data skipping is on (its default: \
                min/max of the first 32 columns).
                - Queries (%d per class, drawn with seed %d): the paper's notebook, a meter's consumption against \
                its neighbours' mean (a `GROUP BY vid` over the selection), the selection a square box around a \
                drawn meter and a time window of %d steps (%s h). Boxes of 5, 10 and 20 km are what the history \
                foresaw (other queries of the same shapes); a 50 km box, a temperature band and a floor size (no \
                box) are not. Every query's row count and XOR of row hashes (vid, date, sumHC, sumHP) are asserted \
                equal under every scenario, in every run: the benchmark stops at the first difference.
                - Scenarios per object count: each layout with its skipping on (Stork's manifest statistics; \
                Delta's log statistics); \"Parquet pruning alone\": the k-d tree (lat, lon) with \
                `spark.stork.skipping.filter.enabled=false`, so that only Spark's Parquet filter pushdown (row \
                groups, page indexes in the footers) prunes; \"nothing skipped\": no layout, Stork's skipping off \
                and `spark.sql.parquet.filterPushdown=false`, every object's columns read: the paper's baseline.
                - Measured at the store's access log (scripts/local-store.sh: Swift with s3api on loopback, one \
                bucket): objects = distinct data objects served a GET, bytes = all the store sent during the query \
                (data, footers, manifest, Delta's log), GET = all GETs; planning = the physical plan (where Delta \
                judges its statistics) plus Spark's scan \"metadata time\" (where Stork does); wall = the query. \
                Tables give the mean over a class's queries of each query's median over %d run(s). Spark \
                %s, one driver JVM, adaptive execution off (it would merge the n write partitions); %d cores. \
                Stork reads with `fs.stork.read.whole.object.size=%s`: %s.
                - Reductions: ×none = bytes with no layout / bytes with the layout, both with skipping on (what \
                a layout adds to skipping); ×all = bytes with nothing skipped / bytes with the layout (the \
                paper's \"compared to when not using filters\"). The ideal bound: each query's matching rows × the \
                bytes per row that reading everything sent for its columns, as if the matching rows filled \
                objects of their own and nothing else were read; a real layout cannot reach it (objects hold \
                whole buckets, footers and the manifest are read too).

                """, o.seed(), o.meters(), o.days(), rows, fmt(noneBytes / 1048576.0, 1), o.objects(),
                o.historyQueries() * 3, o.historyQueries(), o.queries(), o.seed() + 1, o.windowSteps(),
                fmt(o.windowSteps() / 4.0, 1), o.runs(), o.master(), Runtime.getRuntime().availableProcessors(), o.wholeObjectSize(),
                o.wholeObjectSize().equals("0") ? "every part read by ranges (footer, then the column chunks a query "
                        + "needs), as S3A reads Delta's files"
                        : "Stork's default, a part up to that size fetched whole by its first read (one GET instead of "
                        + "three or more: fewer calls, every column's bytes); at this size every part is under it");
    }

    static String notes() {
        return """
                ## Reading the figures

                - Arrival order already clusters by time: with a one-day window over a week, no layout reads \
                about a seventh of the objects even without any spatial layout, which is why ×none is much lower \
                than ×all. The paper compared against no filtering at all (×all).
                - Parquet is columnar: every scenario reads only the columns a query names (vid, date, sumHC, \
                sumHP and the predicate columns), so bytes are smaller than whole objects, in every scenario alike.
                - The grid and the k-d tree on (lat, lon) spread every object over the whole week: a box query \
                reads all of its objects' days. Keys with date let one object hold a place over part of the week.

                """;
    }
}
