package io.stork.commit;

import io.stork.hadoop.settings.StorkSettings;
import io.stork.manifest.Manifest;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The dataset tool's reading and maintenance commands as calls returning values rather than printed lines,
 * for APIs above this module (Spark's {@code StorkDataset}, SQL's {@code DESCRIBE HISTORY}, {@code VACUUM},
 * {@code RESTORE}). The work is the tool's own classes' ({@link DatasetCommitter}, {@link DatasetInspection},
 * {@link DatasetMaintenance}, {@link MaintenanceLimits}), so both faces read, restore and delete alike.
 */
public final class DatasetOperations {

    /**
     * One object vacuum deleted or, in a dry run, would delete.
     *
     * @param path  the object's full path
     * @param bytes its length
     * @param kind  {@code dropped-part} (a generation dropped it longer ago than the retention),
     *              {@code stray-part} (an attempt no manifest names) or {@code bookkeeping} (claims, task
     *              markers, unnamed segments)
     */
    public record Deletion(String path, long bytes, String kind) {
    }

    /**
     * What vacuum did.
     *
     * @param dryRun    nothing was deleted: {@code deletions} are what would be
     * @param retention the retention applied (after the maintenance floor's check)
     * @param deletions the objects deleted (or that would be)
     * @param failures  deletions the store refused
     * @param kept      objects kept, by reason, as the tool prints them
     */
    public record VacuumResult(boolean dryRun, Duration retention, List<Deletion> deletions, int failures,
                               Map<String, Integer> kept) {

        public VacuumResult {
            deletions = List.copyOf(deletions);
            kept = Map.copyOf(kept);
        }
    }

    private DatasetOperations() {
    }

    /** The dataset's manifest (one GET, and its segments if it names any); empty where it has none. */
    public static Optional<Manifest> manifest(FileSystem fs, Path root) throws IOException {
        return new DatasetCommitter(fs, root, "read").readManifest();
    }

    /**
     * The dataset's layout model ({@code _stork/layout/model.json}) in one line, as {@code inspect} prints it;
     * empty where it has none (one GET either way).
     */
    public static Optional<String> layout(FileSystem fs, Path root) throws IOException {
        return LayoutReport.findModel(fs, fs.makeQualified(root)).map(LayoutReport::describe);
    }

    /** A new generation naming generation {@code generation}'s parts (nothing copied), as the tool's restore. */
    public static Manifest restore(FileSystem fs, Path root, long generation) throws IOException {
        return new DatasetCommitter(fs, root, "restore-" + UUID.randomUUID()).restore(generation);
    }

    /**
     * The tool's {@code vacuum}: the retention given (null: the dataset's setting) is checked against the
     * maintenance floor before the store is touched, the dataset is listed raw, and only Stork parts and
     * bookkeeping older than their periods are deleted.
     *
     * @throws IllegalArgumentException one line, when the retention is under the floor
     */
    public static VacuumResult vacuum(Configuration sessionConf, Path root, Duration retention, boolean dryRun)
            throws IOException {
        Configuration conf = new Configuration(sessionConf);
        MaintenanceLimits limits = MaintenanceLimits.of(conf, root.toUri().getAuthority());
        // A retention given is checked before the store is touched; the default once the manifest is read.
        Duration given = retention == null ? null : limits.check(retention, "RETAIN");
        // Raw objects, not the manifest's view, and an instance of our own for that setting (as the tool).
        conf.setBoolean("fs.stork.read.raw", true);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        try (FileSystem fs = FileSystem.newInstance(root.toUri(), conf)) {
            DatasetInspection inspection = DatasetInspection.of(fs, root);
            Duration period = given != null ? given : defaultRetention(conf, root, inspection, limits);
            PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
            DatasetMaintenance maintenance = new DatasetMaintenance(fs, inspection, "vacuum",
                    DatasetCommitter.settings(conf, inspection.root()).claimTimeout(), limits,
                    new Progress(silent, "vacuum", Duration.ofDays(1)), silent);
            DatasetMaintenance.Outcome outcome = maintenance.vacuum(dryRun, period);
            List<Deletion> deletions = new ArrayList<>();
            add(deletions, outcome.dropped(), "dropped-part");
            add(deletions, outcome.strays(), "stray-part");
            add(deletions, outcome.bookkeeping(), "bookkeeping");
            return new VacuumResult(outcome.dryRun(), period, deletions, outcome.failures(), outcome.kept());
        }
    }

    /**
     * Vacuum's retention when none is given, as the tool's {@code vacuum} takes it (the dataset's setting),
     * checked against the floor.
     */
    private static Duration defaultRetention(Configuration conf, Path root, DatasetInspection inspection,
                                             MaintenanceLimits limits) {
        // The dataset's own retention property, else the bucket's or session's key, else 7 days.
        StorkSettings settings = StorkSettings.of(conf, root.toUri().getAuthority())
                .withDataset(inspection.manifest().map(Manifest::properties).orElse(Map.of()));
        return limits.check(settings.retention(), settings.retentionSource());
    }

    private static void add(List<Deletion> into, List<LocatedFileStatus> files, String kind) {
        files.forEach(f -> into.add(new Deletion(f.getPath().toString(), f.getLen(), kind)));
    }
}
