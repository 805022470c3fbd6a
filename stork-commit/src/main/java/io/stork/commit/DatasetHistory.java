package io.stork.commit;

import io.stork.manifest.Changes;
import io.stork.manifest.GenerationInfo;
import io.stork.manifest.Manifest;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The dataset tool's {@code history} and {@code changes}: read from the manifest alone (one GET). */
final class DatasetHistory {

    private DatasetHistory() {
    }

    private static Manifest manifest(FileSystem fs, Path root) throws IOException {
        return new DatasetCommitter(fs, root, "history").readManifest().orElseThrow(() ->
                new IOException("no Stork manifest in " + fs.makeQualified(root) + ": it has no generations"));
    }

    static int history(FileSystem fs, Path root) throws IOException {
        Manifest m = manifest(fs, root);
        System.out.printf("dataset %s: generation %d; generations %d to %d readable%n", fs.makeQualified(root),
                m.generation(), m.restorableFrom(), m.generation());
        System.out.printf("%10s  %-27s  %-40s  %-24s  %7s  %15s  %12s  %6s  %7s%n", "generation", "operation", "job",
                "committed", "parts", "bytes", "records", "added", "removed");
        for (GenerationInfo h : m.history()) {
            System.out.printf("%10d  %-27s  %-40s  %-24s  %7d  %,15d  %12s  %6d  %7d%n", h.generation(),
                    h.operation().jsonName(), h.jobId(), h.committedAt(), h.partCount(), h.bytes(),
                    h.records() == null ? "-" : String.format("%,d", h.records()), h.added(), h.removed());
        }
        return 0;
    }

    static int changes(FileSystem fs, Path root, long from, long to) throws IOException {
        Manifest m = manifest(fs, root);
        Changes changes;
        try {
            changes = Changes.between(m, from, to < 0 ? m.generation() : to);
        } catch (IllegalArgumentException e) {
            throw new IOException(fs.makeQualified(root) + ": " + e.getMessage());
        }
        System.out.printf("dataset %s: changes after generation %d up to %d: %d parts added, %d removed%n",
                fs.makeQualified(root), changes.from(), changes.to(), changes.added().size(), changes.removed().size());
        for (Changes.Event e : changes.inCommitOrder()) {
            System.out.printf("  %s generation %d  %s  %d bytes%n", e.added() ? "+" : "-", e.generation(),
                    e.part().path(), e.part().length());
        }
        return 0;
    }
}
