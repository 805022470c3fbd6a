package io.stork.commit;

import io.stork.layout.model.PartitionerModel;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.skipping.LayoutSeparation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * What is in a dataset directory, comparing its manifest with every object below it (one listing, with
 * a file system that shows raw objects): the parts the manifest names, those it names but are gone, stray
 * attempt parts no manifest names, other files, and the commit claims.
 *
 * @param root     the dataset directory
 * @param manifest its manifest, if any
 * @param present  named parts found, by relative path
 * @param missing  named parts not found
 * @param strays   attempt parts not named (failed, speculative or uncommitted attempts)
 * @param retained parts earlier generations named and a later one dropped, kept for the retention period
 * @param others   other files not named (neither parts nor Stork's own)
 * @param claims   Stork's bookkeeping: commit claims ({@code _stork/generation-n}) and task markers
 * @param layout   the dataset's layout model ({@code _stork/layout/model.json}) in one line, if it has one
 * @param separation how well the current generation's parts separate over the model's key columns (if the
 *                 dataset has a readable model and a manifest)
 */
record DatasetInspection(Path root, Optional<Manifest> manifest, List<LocatedFileStatus> present,
                         List<ManifestPart> missing, List<LocatedFileStatus> strays, List<LocatedFileStatus> retained,
                         List<LocatedFileStatus> others, List<LocatedFileStatus> claims, Optional<String> layout,
                         Optional<LayoutSeparation> separation) {

    /** Where a dataset keeps its layout model (written by {@code io.stork.spark.layout.StorkLayouts}). */
    static final String LAYOUT_MODEL = LayoutReport.LAYOUT_MODEL;

    static DatasetInspection of(FileSystem rawFs, Path root) throws IOException {
        return of(rawFs, root, null);
    }

    /** As {@link #of(FileSystem, Path)}, telling {@code progress} how many objects were listed so far. */
    static DatasetInspection of(FileSystem rawFs, Path root, Progress progress) throws IOException {
        Path qualified = rawFs.makeQualified(root);
        Optional<Manifest> manifest;
        try (InputStream in = rawFs.open(new Path(qualified, PartNames.MANIFEST))) {
            manifest = ManifestCodec.readIfStork(in, new Path(qualified, PartNames.MANIFEST).toString(),
                    FileSystemDatasetStorage.segments(rawFs, qualified));
        } catch (FileNotFoundException e) {
            manifest = Optional.empty();
        }
        Map<String, ManifestPart> named = new HashMap<>();
        manifest.ifPresent(m -> m.parts().forEach(p -> named.put(p.path(), p)));
        java.util.Set<String> removed = new java.util.HashSet<>();
        manifest.ifPresent(m -> m.removed().forEach(r -> removed.add(r.part().path())));
        List<LocatedFileStatus> retained = new ArrayList<>();
        List<LocatedFileStatus> present = new ArrayList<>();
        List<LocatedFileStatus> strays = new ArrayList<>();
        List<LocatedFileStatus> others = new ArrayList<>();
        List<LocatedFileStatus> claims = new ArrayList<>();
        String prefix = qualified.toUri().getPath().endsWith("/") ? qualified.toUri().getPath()
                : qualified.toUri().getPath() + "/";
        RemoteIterator<LocatedFileStatus> files = rawFs.listFiles(qualified, true);
        long examined = 0;
        while (files.hasNext()) {
            LocatedFileStatus file = files.next();
            if (progress != null) {
                progress.update("listed %,d objects", ++examined);
            }
            String relative = file.getPath().toUri().getPath().substring(prefix.length());
            if (named.remove(relative) != null) {
                present.add(file);
            } else if (removed.contains(relative)) {
                retained.add(file);
            } else if (relative.startsWith(PartNames.INTERNAL_DIRECTORY + "/")) {
                claims.add(file);
            } else if (PartNames.isAttemptNamed(file.getPath().getName())) {
                strays.add(file);
            } else if (!relative.equals(PartNames.MANIFEST) && !file.getPath().getName().startsWith(".")) {
                // (names starting with '.' are hidden side files, such as local checksums)
                others.add(file);
            }
        }
        Optional<String> layout = Optional.empty();
        Optional<LayoutSeparation> separation = Optional.empty();
        for (LocatedFileStatus claim : claims) {
            if (claim.getPath().toUri().getPath().substring(prefix.length()).equals(LAYOUT_MODEL)) {
                PartitionerModel model;
                try {
                    model = LayoutReport.readModel(rawFs, claim.getPath()); // 1 GET, only where a model is saved
                } catch (IOException | RuntimeException e) {
                    layout = Optional.of("unreadable model " + LAYOUT_MODEL + " (" + e.getMessage() + ")");
                    continue;
                }
                layout = Optional.of(LayoutReport.describe(model));
                if (manifest.isPresent()) { // from the statistics the manifest already holds: no call
                    separation = Optional.of(LayoutReport.separation(manifest.get(), LayoutReport.keyColumns(model)));
                }
            }
        }
        return new DatasetInspection(qualified, manifest, present, List.copyOf(named.values()), strays, retained, others,
                claims, layout, separation);
    }

    /** A report for people, one fact per line. */
    String report() {
        StringBuilder b = new StringBuilder("dataset ").append(root).append('\n');
        if (manifest.isPresent()) {
            Manifest m = manifest.get();
            b.append(String.format("  manifest: generation %d (%s) by job %s, committed %s, written by %s%n",
                    m.generation(), m.operation().jsonName(), m.jobId(), m.committedAt(), m.writer()));
            b.append(String.format("  generations readable: %d to %d%n", m.restorableFrom(), m.generation()));
            m.properties().forEach((k, v) -> b.append(String.format("  property %s = %s%n", k, v)));
            layout.ifPresent(l -> b.append("  layout: ").append(l).append('\n'));
            separation.ifPresent(s -> b.append(LayoutReport.inspectLines(s)));
            Map<String, long[]> byDirectory = new TreeMap<>();
            for (ManifestPart part : m.parts()) {
                long[] sums = byDirectory.computeIfAbsent(part.directory().isEmpty() ? "." : part.directory(),
                        d -> new long[2]);
                sums[0]++;
                sums[1] += part.length();
            }
            b.append(String.format("  parts: %d, %,d bytes, in %d director%s%n", m.parts().size(), m.totalLength(),
                    byDirectory.size(), byDirectory.size() == 1 ? "y" : "ies"));
            byDirectory.forEach((dir, sums) -> b.append(String.format("    %-40s %6d parts %,15d bytes%n", dir,
                    sums[0], sums[1])));
        } else {
            b.append("  no Stork manifest").append(strays.isEmpty() ? "\n"
                    : ": attempt parts without a manifest, an incomplete dataset (its job did not commit)\n");
        }
        if (!missing.isEmpty()) {
            b.append(String.format("  MISSING: %d parts the manifest names are not in the store, e.g. %s%n",
                    missing.size(), missing.get(0).path()));
        }
        b.append(String.format("  retained parts (dropped by a generation, kept for the retention period): %d, %,d bytes%n",
                retained.size(), retained.stream().mapToLong(LocatedFileStatus::getLen).sum()));
        b.append(String.format("  stray attempt parts (no manifest names them): %d, %,d bytes%n", strays.size(),
                strays.stream().mapToLong(LocatedFileStatus::getLen).sum()));
        strays.stream().limit(10).forEach(s -> b.append("    ").append(s.getPath()).append('\n'));
        if (!others.isEmpty()) {
            b.append(String.format("  other objects the manifest does not name: %d (kept by clean)%n", others.size()));
            others.stream().limit(10).forEach(s -> b.append("    ").append(s.getPath()).append('\n'));
        }
        b.append(String.format("  commit claims: %d%n", claims.size()));
        return b.toString();
    }
}
