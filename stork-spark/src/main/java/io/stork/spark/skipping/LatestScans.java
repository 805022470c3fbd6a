package io.stork.spark.skipping;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SQLExecution;
import org.apache.spark.sql.execution.datasources.FileIndex;

/**
 * The newest skipping reports, kept where a user looks for them after an action. Each action plans its own
 * scan ({@code df.count()} plans {@code df.groupBy().count()}, whose listing is not {@code df}'s), so a
 * report is kept by the file index the DataFrame was made over (the same instance under every plan made from
 * it; by identity), and by the session's last query: the scans listed under the newest SQL execution id. Weak keys: an
 * index or session no longer used takes its reports with it.
 */
final class LatestScans {

    /**
     * By the file index instance (file indexes may be equal by their root, and a weak map keeps the first of
     * equal keys, which may be collected while the others live): the latest few hundred, an index collected
     * since leaving a dead entry until it ages out.
     */
    private static final Map<Source, ScanReport> BY_SOURCE = Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Source, ScanReport> eldest) {
                    return size() > 256;
                }
            });
    private static final Map<SparkSession, LastQuery> BY_SESSION = Collections.synchronizedMap(new WeakHashMap<>());

    /** A file index by identity, not holding it. */
    private static final class Source {
        private final java.lang.ref.WeakReference<FileIndex> index;
        private final int hash;

        Source(FileIndex index) {
            this.index = new java.lang.ref.WeakReference<>(index);
            this.hash = System.identityHashCode(index);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Source other && index.get() != null && index.get() == other.index.get();
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** The scans one execution listed, in the order they listed. */
    private record LastQuery(String executionId, List<ScanReport> reports) {
    }

    private LatestScans() {
    }

    /** Called on the driver as a listing over {@code source} is judged. */
    static void record(FileIndex source, ScanReport report) {
        BY_SOURCE.put(new Source(source), report);
        Optional<SparkSession> session = SparkSession.getActiveSession().isDefined()
                ? Optional.of(SparkSession.getActiveSession().get()) : Optional.empty();
        if (session.isEmpty()) {
            return;
        }
        String execution = session.get().sparkContext().getLocalProperty(SQLExecution.EXECUTION_ID_KEY());
        BY_SESSION.compute(session.get(), (s, last) -> {
            List<ScanReport> reports = last != null && java.util.Objects.equals(last.executionId(), execution)
                    ? new ArrayList<>(last.reports()) : new ArrayList<>();
            reports.add(report);
            return new LastQuery(execution, List.copyOf(reports));
        });
    }

    /** The newest report of a listing over {@code source}, whichever plan listed it. */
    static Optional<ScanReport> newest(FileIndex source) {
        return Optional.ofNullable(BY_SOURCE.get(new Source(source)));
    }

    /** The reports of the session's last query that data skipping judged; empty before any. */
    static List<ScanReport> lastQuery(SparkSession session) {
        LastQuery last = BY_SESSION.get(session);
        return last == null ? List.of() : last.reports();
    }
}
