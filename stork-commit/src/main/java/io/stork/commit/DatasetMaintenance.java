package io.stork.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.PartNames;
import io.stork.manifest.segment.Segments;
import io.stork.manifest.RemovedPart;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The dataset tool's deletions. {@code clean}: stray attempt parts older than a cutoff, claims of past
 * generations, old task markers. {@code vacuum}: the same with the retention period as cutoff, plus the
 * parts that generations dropped longer ago than the retention (no generation still readable names them).
 * Only Stork attempt parts and Stork bookkeeping are ever deleted.
 */
final class DatasetMaintenance {

    private DatasetMaintenance() {
    }

    static void clean(FileSystem fs, DatasetInspection inspection, boolean dryRun, Duration olderThan,
                      Duration claimTimeout) throws IOException {
        long cutoff = System.currentTimeMillis() - olderThan.toMillis();
        List<LocatedFileStatus> doomed = new ArrayList<>();
        for (LocatedFileStatus stray : inspection.strays()) {
            if (stray.getModificationTime() < cutoff) {
                doomed.add(stray);
            }
        }
        int strays = doomed.size();
        doomed.addAll(bookkeeping(fs, inspection, cutoff, claimTimeout));
        int younger = inspection.strays().size() - strays;
        delete(fs, inspection, "clean", doomed, dryRun, younger > 0
                ? "; kept " + younger + " stray parts younger than " + olderThan.toMinutes() + " min" : "");
    }

    static void vacuum(FileSystem fs, DatasetInspection inspection, boolean dryRun, Duration retention,
                       Duration claimTimeout) throws IOException {
        Instant now = Instant.now();
        long cutoff = now.minus(retention).toEpochMilli();
        List<LocatedFileStatus> doomed = new ArrayList<>();
        Map<String, Instant> lastRemoved = new HashMap<>();
        Set<String> current = new HashSet<>();
        inspection.manifest().ifPresent(m -> {
            m.parts().forEach(p -> current.add(p.path()));
            for (RemovedPart r : m.removed()) {
                lastRemoved.merge(r.part().path(), r.removedAt(), (a, b) -> a.isAfter(b) ? a : b);
            }
        });
        String prefix = inspection.root().toUri().getPath() + "/";
        int kept = 0;
        for (LocatedFileStatus part : inspection.retained()) {
            String relative = part.getPath().toUri().getPath().substring(prefix.length());
            Instant removedAt = lastRemoved.get(relative);
            if (!current.contains(relative) && removedAt != null && removedAt.toEpochMilli() < cutoff) {
                doomed.add(part);
            } else {
                kept++;
            }
        }
        for (LocatedFileStatus stray : inspection.strays()) {
            if (stray.getModificationTime() < cutoff) {
                doomed.add(stray);
            }
        }
        doomed.addAll(bookkeeping(fs, inspection, cutoff, claimTimeout));
        delete(fs, inspection, "vacuum", doomed, dryRun, kept > 0
                ? "; kept " + kept + " dropped parts still within the retention period (" + retention + ")" : "");
    }

    /**
     * Claims older than the claim timeout, except the current generation's: below it their commits are
     * decided, above it their jobs died. (A younger claim may belong to a commit in flight, which must find
     * it.) Task markers older than the cutoff.
     */
    private static List<LocatedFileStatus> bookkeeping(FileSystem fs, DatasetInspection inspection, long cutoff,
                                                       Duration claimTimeout) throws IOException {
        long current = inspection.manifest().map(Manifest::generation).orElse(0L);
        long staleBefore = System.currentTimeMillis() - claimTimeout.toMillis();
        java.util.Set<String> namedSegments = new java.util.HashSet<>();
        inspection.manifest().ifPresent(m -> Segments.named(m).forEach(s -> namedSegments.add(s.name())));
        List<LocatedFileStatus> doomed = new ArrayList<>();
        for (LocatedFileStatus file : inspection.claims()) {
            String name = file.getPath().getName();
            if (file.getPath().getParent().getName().equals("segments")
                    && file.getPath().getParent().getParent().getName().equals(PartNames.INTERNAL_DIRECTORY)) {
                // A segment no manifest names: its commit failed, or every part it kept left retention.
                if (!namedSegments.contains(name) && file.getModificationTime() < cutoff) {
                    doomed.add(file);
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
            } else if (file.getPath().toString().contains("/_stork/jobs/") && file.getModificationTime() < cutoff) {
                doomed.add(file); // task markers of the Hadoop committer: the manifest has their facts
            }
        }
        return doomed;
    }

    private static void delete(FileSystem fs, DatasetInspection inspection, String what,
                               List<LocatedFileStatus> doomed, boolean dryRun, String note) throws IOException {
        long bytes = doomed.stream().mapToLong(LocatedFileStatus::getLen).sum();
        if (dryRun) {
            System.out.printf("%s (dry run): would delete %d objects, freeing %,d bytes%s%n", what, doomed.size(), bytes,
                    note);
            doomed.forEach(p -> System.out.println("  " + p.getPath() + "  " + p.getLen()));
            return;
        }
        List<Path> paths = new ArrayList<>();
        doomed.forEach(f -> paths.add(f.getPath()));
        int failures = DatasetCommitter.deleteAll(fs, inspection.root(), paths);
        System.out.printf("%s: deleted %d objects, freed %,d bytes%s%s%n", what, doomed.size() - failures, bytes,
                failures > 0 ? ", " + failures + " failed" : "", note);
    }
}
