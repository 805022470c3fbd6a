package io.stork.commit;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code stork-dataset <command> [options] [-Dkey=value ...] <dataset uri> [arguments]}
 * (scripts/stork-dataset.sh):
 * <ul>
 *   <li>{@code inspect}: the manifest, its parts, retained and stray objects;</li>
 *   <li>{@code clean [--older-than 60m]}: stray attempt parts of failed jobs, old claims and task markers;</li>
 *   <li>{@code vacuum [--retention 7d]}: also the parts generations dropped longer ago than the retention;</li>
 *   <li>{@code history}, {@code changes <from> [<to>]}: the generations, and what each added and dropped;</li>
 *   <li>{@code restore <generation>}: a new generation naming that generation's parts (nothing copied);</li>
 *   <li>{@code stats}: the current generation's data-skipping statistics per column;</li>
 *   <li>{@code index <format> [option=value ...]}: statistics for objects Stork did not write (a Spark job:
 *       run the tool with spark-submit and the runtime jar, or where Stork's Spark module is on the class
 *       path).</li>
 * </ul>
 * {@code --dry-run} prints what clean or vacuum would delete and the bytes it would free. Objects that are
 * not Stork parts or Stork bookkeeping are never deleted.
 */
public final class DatasetTool {

    private static final List<String> COMMANDS = List.of("inspect", "stats", "index", "clean", "vacuum", "history", "changes", "restore");
    private static final String INDEX_COMMAND = "io.stork.spark.skipping.IndexCommand";

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
        java.util.Map<String, String> given = new java.util.LinkedHashMap<>(); // the -D settings, for a Spark job
        // Run by spark-submit (--class io.stork.commit.DatasetTool stork-spark-runtime.jar): its --conf
        // spark.hadoop.* settings arrive as system properties, as they would reach a Spark application.
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("spark.hadoop."))
                .forEach(k -> conf.set(k.substring("spark.hadoop.".length()), System.getProperty(k)));
        // Hadoop's service list may have been read before this jar joined the class path (spark-submit).
        if (conf.get("fs.stork.impl") == null) {
            conf.set("fs.stork.impl", "io.stork.hadoop.StorkFileSystem");
        }
        String command = null;
        String uri = null;
        List<String> rest = new ArrayList<>();
        boolean dryRun = false;
        Duration olderThan = Duration.ofMinutes(60);
        Duration retention = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("-D") && arg.contains("=")) {
                conf.set(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
                given.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            } else if (arg.equals("--dry-run")) {
                dryRun = true;
            } else if (arg.equals("--older-than") && i + 1 < args.length) {
                olderThan = duration(args[++i]);
            } else if (arg.equals("--retention") && i + 1 < args.length) {
                retention = duration(args[++i]);
            } else if (command == null) {
                command = arg;
            } else if (uri == null) {
                uri = arg;
            } else {
                rest.add(arg);
            }
        }
        if (command == null || uri == null || !COMMANDS.contains(command)) {
            System.err.println("usage: stork-dataset inspect|stats|index|clean|vacuum|history|changes|restore [--dry-run] "
                    + "[--older-than 60m] [--retention 7d] [-Dkey=value ...] <dataset uri> [<generation> ...] "
                    + "| index <dataset uri> <format> [option=value ...]");
            return 2;
        }
        if (command.equals("index")) {
            List<String> indexArgs = new ArrayList<>(List.of(uri));
            indexArgs.addAll(rest);
            System.out.println(index(indexArgs.toArray(new String[0]), given));
            return 0;
        }
        // Raw objects, not the manifest's view, and an instance of our own for that setting.
        conf.setBoolean("fs.stork.read.raw", true);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        Path root = new Path(uri);
        try (FileSystem fs = FileSystem.newInstance(root.toUri(), conf)) {
            switch (command) {
                case "history":
                    return DatasetHistory.history(fs, root);
                case "changes":
                    return DatasetHistory.changes(fs, root, generation(rest, 0, "from"),
                            rest.size() > 1 ? generation(rest, 1, "to") : -1);
                case "restore":
                    return restore(fs, root, generation(rest, 0, "generation"));
                case "stats":
                    return DatasetStatistics.print(fs, root, System.out);
                default:
                    break;
            }
            DatasetInspection inspection = DatasetInspection.of(fs, root);
            System.out.print(inspection.report());
            if (command.equals("clean")) {
                DatasetMaintenance.clean(fs, inspection, dryRun, olderThan,
                        DatasetCommitter.settings(conf, inspection.root()).claimTimeout());
            } else if (command.equals("vacuum")) {
                Duration kept = retention != null ? retention
                        : DatasetCommitter.settings(conf, inspection.root()).retention();
                DatasetMaintenance.vacuum(fs, inspection, dryRun, kept,
                        DatasetCommitter.settings(conf, inspection.root()).claimTimeout());
            }
            return inspection.missing().isEmpty() ? 0 : 1;
        }
    }

    /** Runs the index command's Spark job through Stork's Spark module, found on the class path. */
    private static String index(String[] args, java.util.Map<String, String> settings) throws IOException {
        java.lang.reflect.Method run;
        try {
            run = Class.forName(INDEX_COMMAND).getMethod("runForTool", String[].class, java.util.Map.class);
        } catch (ClassNotFoundException | NoClassDefFoundError | NoSuchMethodException e) {
            throw new IllegalArgumentException("index runs a Spark job and Spark is not on the class path: run "
                    + "spark-submit --class io.stork.commit.DatasetTool stork-spark-runtime-<version>.jar index "
                    + "<dataset uri> <format> [option=value ...]");
        }
        try {
            return (String) run.invoke(null, args, settings);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof IllegalArgumentException bad) {
                throw bad;
            }
            // A Spark error (a path that is not there, a format that cannot read it): its first line.
            String message = String.valueOf(cause.getMessage()).lines().findFirst().orElse(cause.toString());
            throw new IOException("index failed: " + message, cause);
        }
    }

    private static int restore(FileSystem fs, Path root, long generation) throws IOException {
        String job = "restore-" + UUID.randomUUID();
        var manifest = new DatasetCommitter(fs, root, job).restore(generation);
        System.out.printf("restored %s to generation %d: generation %d names %d parts, %,d bytes (nothing copied)%n",
                fs.makeQualified(root), generation, manifest.generation(), manifest.parts().size(),
                manifest.totalLength());
        return 0;
    }

    private static long generation(List<String> rest, int index, String what) {
        if (rest.size() <= index) {
            throw new IllegalArgumentException("missing <" + what + "> (a generation number)");
        }
        try {
            return Long.parseLong(rest.get(index));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("<" + what + "> must be a generation number, not '" + rest.get(index) + "'");
        }
    }

    /** {@code 90s}, {@code 60m}, {@code 12h}, {@code 7d}; a bare number is minutes. */
    static Duration duration(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (t.endsWith("d")) {
                return Duration.ofDays(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            if (t.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            if (t.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            return Duration.ofMinutes(Long.parseLong(t.endsWith("m") ? t.substring(0, t.length() - 1) : t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (use e.g. 90s, 60m, 12h, 7d)");
        }
    }
}
