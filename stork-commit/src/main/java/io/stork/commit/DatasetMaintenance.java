package io.stork.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.PartNames;
import io.stork.manifest.RemovedPart;
import io.stork.manifest.segment.Segments;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The dataset tool's deletions (docs/commit-protocol.md, "Maintenance and running jobs"). {@code clean}:
 * stray attempt parts older than its period, claims of past generations, old task markers and unnamed
 * segments. {@code vacuum}: the same with the retention period, plus the parts generations dropped longer
 * ago than the retention. Only Stork attempt parts and Stork bookkeeping are ever deleted; the periods were
 * checked against the floor ({@link MaintenanceLimits}) before this runs. Before deleting stray parts, their
 * attempts are fenced in a generation of their own, so that a job still running can never commit them.
 */
final class DatasetMaintenance {

    private final FileSystem fs;
    private final DatasetInspection inspection;
    private final String command;
    private final Duration claimTimeout;
    private final MaintenanceLimits limits;
    private final Progress progress;
    private final PrintStream out;

    DatasetMaintenance(FileSystem fs, DatasetInspection inspection, String command, Duration claimTimeout,
                       MaintenanceLimits limits, Progress progress, PrintStream out) {
        this.fs = fs;
        this.inspection = inspection;
        this.command = command;
        this.claimTimeout = claimTimeout;
        this.limits = limits;
        this.progress = progress;
        this.out = out;
    }

    /** What a command deletes, and how many objects it keeps for which reason. */
    private record Plan(List<LocatedFileStatus> dropped, List<LocatedFileStatus> strays,
                        List<LocatedFileStatus> bookkeeping, Map<String, Integer> kept) {

        long bytes() {
            long sum = 0;
            for (List<LocatedFileStatus> list : List.of(dropped, strays, bookkeeping)) {
                for (LocatedFileStatus f : list) {
                    sum += f.getLen();
                }
            }
            return sum;
        }

        int objects() {
            return dropped.size() + strays.size() + bookkeeping.size();
        }
    }

    /**
     * What a command deleted (or, in a dry run, would delete), by kind, for callers that want rows rather
     * than the printed summary (the Spark API's {@code vacuum}).
     */
    record Outcome(boolean dryRun, List<LocatedFileStatus> dropped, List<LocatedFileStatus> strays,
                   List<LocatedFileStatus> bookkeeping, int failures, Map<String, Integer> kept) {
    }

    /** {@code clean}: strays and bookkeeping older than {@code period}. */
    Outcome clean(boolean dryRun, Duration period) throws IOException {
        return run(dryRun, period, null);
    }

    /** {@code vacuum}: as clean, and the parts dropped longer ago than {@code retention}. */
    Outcome vacuum(boolean dryRun, Duration retention) throws IOException {
        return run(dryRun, retention, retention);
    }

    private Outcome run(boolean dryRun, Duration period, Duration retention) throws IOException {
        Instant now = Instant.now();
        Plan plan = plan(now, period, retention);
        if (dryRun) {
            out.printf("%s (dry run): would delete %d objects, freeing %,d bytes%s%n", command, plan.objects(),
                    plan.bytes(), keptNote(plan.kept()));
            for (List<LocatedFileStatus> list : List.of(plan.dropped(), plan.strays(), plan.bookkeeping())) {
                list.forEach(p -> out.println("  " + p.getPath() + "  " + p.getLen()));
            }
            return new Outcome(true, plan.dropped(), plan.strays(), plan.bookkeeping(), 0, plan.kept());
        }
        List<LocatedFileStatus> strays = fenceStrays(plan, now, period);
        List<LocatedFileStatus> doomed = new ArrayList<>(plan.dropped());
        doomed.addAll(strays);
        doomed.addAll(plan.bookkeeping());
        long bytes = 0;
        List<Path> paths = new ArrayList<>();
        for (LocatedFileStatus f : doomed) {
            paths.add(f.getPath());
            bytes += f.getLen();
        }
        long total = bytes;
        long[] bytesBefore = new long[doomed.size() + 1];
        for (int i = 0; i < doomed.size(); i++) {
            bytesBefore[i + 1] = bytesBefore[i] + doomed.get(i).getLen();
        }
        int failures = DatasetCommitter.deleteAll(fs, inspection.root(), paths, done ->
                progress.update("deleted %,d of %,d objects, %,d of %,d bytes", done, paths.size(), bytesBefore[done],
                        total));
        out.printf("%s: deleted %d objects (%d dropped parts, %d stray attempt parts, %d bookkeeping), freed %,d "
                        + "bytes%s%s%n", command, doomed.size() - failures, plan.dropped().size(), strays.size(),
                plan.bookkeeping().size(), bytes, failures > 0 ? ", " + failures + " failed" : "",
                keptNote(plan.kept()));
        return new Outcome(false, plan.dropped(), strays, plan.bookkeeping(), failures, plan.kept());
    }

    private Plan plan(Instant now, Duration period, Duration retention) {
        long cutoff = now.minus(period).toEpochMilli();
        Map<String, Integer> kept = new java.util.LinkedHashMap<>();
        List<LocatedFileStatus> dropped = new ArrayList<>();
        if (retention != null) {
            Map<String, Instant> lastRemoved = new HashMap<>();
            Set<String> current = new HashSet<>();
            inspection.manifest().ifPresent(m -> {
                m.parts().forEach(p -> current.add(p.path()));
                for (RemovedPart r : m.removed()) {
                    lastRemoved.merge(r.part().path(), r.removedAt(), (a, b) -> a.isAfter(b) ? a : b);
                }
            });
            long expiry = now.minus(retention).toEpochMilli();
            for (LocatedFileStatus part : inspection.retained()) {
                Instant removedAt = lastRemoved.get(relative(part));
                if (!current.contains(relative(part)) && removedAt != null && removedAt.toEpochMilli() < expiry) {
                    dropped.add(part);
                } else {
                    count(kept, "dropped parts still within the retention period (" + MaintenanceLimits.text(retention)
                            + "), readable by time travel");
                }
            }
        }
        List<LocatedFileStatus> strays = new ArrayList<>();
        for (LocatedFileStatus stray : inspection.strays()) {
            if (stray.getModificationTime() < cutoff) {
                strays.add(stray);
            } else {
                count(kept, "stray attempt parts younger than " + MaintenanceLimits.text(period)
                        + ", which may belong to jobs still running (" + MaintenanceLimits.FLOOR_KEY + " is "
                        + MaintenanceLimits.text(limits.floor()) + ")");
            }
        }
        return new Plan(dropped, strays, bookkeeping(now, cutoff, kept), kept);
    }

    /**
     * Fences the stray parts' attempts in a generation of their own, then returns the strays still unnamed
     * by it: a commit that landed since the inspection names its parts, and they are spared. A dataset no
     * commit created is fenced only when a part is younger than the floor (possible with the check off):
     * older ones belong to jobs that died, and fencing would create an empty dataset.
     */
    private List<LocatedFileStatus> fenceStrays(Plan plan, Instant now, Duration period) throws IOException {
        if (plan.strays().isEmpty()) {
            return plan.strays();
        }
        long floorCutoff = now.minus(limits.floor()).toEpochMilli();
        boolean young = plan.strays().stream().anyMatch(s -> s.getModificationTime() >= floorCutoff);
        if (inspection.manifest().isEmpty() && !young) {
            return plan.strays();
        }
        Set<String> attempts = new TreeSet<>();
        plan.strays().forEach(s -> PartNames.attemptOf(s.getPath().getName()).ifPresent(attempts::add));
        DatasetCommitter committer = new DatasetCommitter(fs, inspection.root(), command + "-" + java.util.UUID.randomUUID());
        // Read afresh, not the inspected manifest: the listing may have taken long, and where the store cannot
        // arbitrate commits (S3 without conditional writes) a fence built on a stale manifest would replace a
        // generation committed since.
        Manifest fenced = committer.fence(attempts, null);
        Set<String> named = new HashSet<>();
        fenced.parts().forEach(p -> named.add(p.path()));
        // Where the store cannot arbitrate commits (S3 without conditional writes), a commit that read the
        // dataset before the fence may still overwrite it moments later: read again after a pause and
        // spare whatever the manifest names then. Elsewhere such a commit loses its claim and sees the fence.
        if (!committer.storeArbitratesCommits()) {
            pause(FENCE_SETTLE);
            committer.readManifest().ifPresent(m -> m.parts().forEach(p -> named.add(p.path())));
        }
        List<LocatedFileStatus> unnamed = new ArrayList<>();
        int spared = 0;
        for (LocatedFileStatus stray : plan.strays()) {
            if (named.contains(relative(stray))) {
                spared++;
            } else {
                unnamed.add(stray);
            }
        }
        progress.say("fenced %d task attempts in generation %d (they can no longer commit)%s", attempts.size(),
                fenced.generation(), spared > 0 ? "; " + spared + " parts committed meanwhile are kept" : "");
        if (spared > 0) {
            count(plan.kept(), "stray attempt parts a commit named since the inspection", spared);
        }
        return unnamed;
    }

    /**
     * Claims older than the claim timeout, except the current generation's: below it their commits are
     * decided, above it their jobs died. (A younger claim may belong to a commit in flight, which must find
     * it.) Task markers and unnamed manifest segments older than the cutoff: a commit in flight writes
     * both before its manifest.
     */
    private List<LocatedFileStatus> bookkeeping(Instant now, long cutoff, Map<String, Integer> kept) {
        long current = inspection.manifest().map(Manifest::generation).orElse(0L);
        long staleBefore = now.minus(claimTimeout).toEpochMilli();
        Set<String> namedSegments = new HashSet<>();
        inspection.manifest().ifPresent(m -> Segments.named(m).forEach(s -> namedSegments.add(s.name())));
        List<LocatedFileStatus> doomed = new ArrayList<>();
        for (LocatedFileStatus file : inspection.claims()) {
            String name = file.getPath().getName();
            if (file.getPath().getParent().getName().equals("segments")
                    && file.getPath().getParent().getParent().getName().equals(PartNames.INTERNAL_DIRECTORY)) {
                // A segment no manifest names: its commit failed, or is in flight.
                if (!namedSegments.contains(name)) {
                    if (file.getModificationTime() < cutoff) {
                        doomed.add(file);
                    } else {
                        count(kept, "unnamed manifest segments younger than the period (a commit may be in flight)");
                    }
                }
            } else if (name.startsWith("generation-")) {
                long generation;
                try {
                    generation = Long.parseLong(name.substring("generation-".length()));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (generation != current && file.getModificationTime() < staleBefore) {
                    doomed.add(file);
                }
            } else if (file.getPath().toString().contains("/_stork/jobs/")) {
                // Task markers of the Hadoop committer: a running job's commit reads them.
                if (file.getModificationTime() < cutoff) {
                    doomed.add(file);
                } else {
                    count(kept, "task markers younger than the period (their job may be running)");
                }
            }
        }
        return doomed;
    }

    /** Longer than a commit takes from reading the manifest to writing the next one. */
    private static final Duration FENCE_SETTLE = Duration.ofMillis(500);

    private static void pause(Duration d) throws java.io.InterruptedIOException {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while fencing");
        }
    }

    private String relative(LocatedFileStatus file) {
        return DatasetCommitter.relativePath(inspection.root(), file.getPath());
    }

    private static void count(Map<String, Integer> kept, String reason) {
        count(kept, reason, 1);
    }

    private static void count(Map<String, Integer> kept, String reason, int n) {
        kept.merge(reason, n, Integer::sum);
    }

    private static String keptNote(Map<String, Integer> kept) {
        if (kept.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("; kept");
        kept.forEach((reason, n) -> b.append(b.length() > 6 ? "," : "").append(' ').append(n).append(' ').append(reason));
        return b.toString();
    }
}
