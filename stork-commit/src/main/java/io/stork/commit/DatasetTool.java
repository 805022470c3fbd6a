package io.stork.commit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;

/**
 * {@code stork-dataset inspect|clean [-Dkey=value ...] <dataset uri>} (scripts/stork-dataset.sh):
 * inspect shows a dataset's manifest, its parts and the objects no manifest names; clean deletes the
 * stray attempt parts (older than {@code --older-than}, default 60 minutes, so a running job's parts are
 * left alone), the commit claims of past generations and old task markers of the Hadoop committer. Other objects are never deleted.
 */
public final class DatasetTool {

    private DatasetTool() {
    }

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("stork-dataset: " + e.getMessage());
            System.exit(2);
        }
    }

    static int run(String[] args) throws IOException {
        Configuration conf = new Configuration();
        String command = null;
        String uri = null;
        boolean dryRun = false;
        long olderThanMinutes = 60;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("-D") && arg.contains("=")) {
                conf.set(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            } else if (arg.equals("--dry-run")) {
                dryRun = true;
            } else if (arg.equals("--older-than") && i + 1 < args.length) {
                olderThanMinutes = Long.parseLong(args[++i].replaceAll("m$", ""));
            } else if (command == null) {
                command = arg;
            } else if (uri == null) {
                uri = arg;
            } else {
                throw new IllegalArgumentException("unexpected argument '" + arg + "'");
            }
        }
        if (command == null || uri == null || !(command.equals("inspect") || command.equals("clean"))) {
            System.err.println("usage: stork-dataset inspect|clean [--dry-run] [--older-than <minutes>m] "
                    + "[-Dkey=value ...] <dataset uri>");
            return 2;
        }
        // Raw objects, not the manifest's view, and an instance of our own for that setting.
        conf.setBoolean("fs.stork.read.raw", true);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        Path root = new Path(uri);
        try (FileSystem fs = FileSystem.newInstance(root.toUri(), conf)) {
            DatasetInspection inspection = DatasetInspection.of(fs, root);
            System.out.print(inspection.report());
            if (command.equals("clean")) {
                clean(fs, inspection, dryRun, olderThanMinutes);
            }
            return inspection.missing().isEmpty() ? 0 : 1;
        }
    }

    private static void clean(FileSystem fs, DatasetInspection inspection, boolean dryRun, long olderThanMinutes)
            throws IOException {
        long cutoff = System.currentTimeMillis() - olderThanMinutes * 60_000;
        List<Path> doomed = new ArrayList<>();
        for (LocatedFileStatus stray : inspection.strays()) {
            if (stray.getModificationTime() < cutoff) {
                doomed.add(stray.getPath());
            }
        }
        long current = inspection.manifest().map(m -> m.generation()).orElse(0L);
        for (LocatedFileStatus claim : inspection.claims()) {
            String name = claim.getPath().getName();
            if (name.startsWith("generation-") && Long.parseLong(name.substring("generation-".length())) < current) {
                doomed.add(claim.getPath());
            } else if (claim.getPath().toString().contains("/_stork/jobs/") && claim.getModificationTime() < cutoff) {
                doomed.add(claim.getPath()); // task markers of the Hadoop committer: the manifest has their facts
            }
        }
        int younger = inspection.strays().size() - (int) doomed.stream().filter(p -> !p.toString().contains("/_stork/")).count();
        if (dryRun) {
            System.out.printf("clean (dry run): would delete %d objects%n", doomed.size());
            doomed.forEach(p -> System.out.println("  " + p));
            return;
        }
        int failures = DatasetCommitter.deleteAll(fs, inspection.root(), doomed);
        System.out.printf("clean: deleted %d objects%s%s%n", doomed.size() - failures,
                failures > 0 ? ", " + failures + " failed" : "",
                younger > 0 ? "; kept " + younger + " stray parts younger than " + olderThanMinutes + " min" : "");
    }
}
