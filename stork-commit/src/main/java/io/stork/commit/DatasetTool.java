package io.stork.commit;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import io.stork.hadoop.settings.StorkSettings;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code stork-dataset <command> [options] [-Dkey=value ...] <dataset uri> [arguments]}
 * (scripts/stork-dataset.sh):
 * <ul>
 *   <li>{@code inspect}: the manifest, its parts, retained and stray objects; the layout model, if saved, and
 *       how well the parts' min/max boxes separate over its key columns;</li>
 *   <li>{@code clean [--dry-run] [--older-than 24h]}: stray attempt parts of failed jobs, old claims and task
 *       markers;</li>
 *   <li>{@code vacuum [--dry-run] [--retention 7d]}: also the parts generations dropped longer ago than the
 *       retention;</li>
 *   <li>{@code history}, {@code changes <from> [<to>]}: the generations, and what each added and dropped;</li>
 *   <li>{@code restore <generation>}: a new generation naming that generation's parts (nothing copied);</li>
 *   <li>{@code set-property <key>=<value> ...}, {@code unset-property <key> ...}: the dataset's properties
 *       ({@link DatasetProperties}) changed in a new generation naming the same parts (nothing rewritten);</li>
 *   <li>{@code stats [<key column> ...]}: the current generation's data-skipping statistics per column, and
 *       how well the parts' ranges separate over the named columns (else the layout model's, else each
 *       column's);</li>
 *   <li>{@code index <format> [option=value ...]}: statistics for objects Stork did not write (a Spark job:
 *       run the tool with spark-submit and the runtime jar, or where Stork's Spark module is on the class
 *       path).</li>
 *   <li>{@code relayout <layout options>}: the current generation rewritten into a new layout as one new
 *       generation (Spark jobs, as {@code index}; the options are {@code io.stork.spark.layout.RelayoutCommand}'s).</li>
 * </ul>
 * The Spark commands are implemented in Stork's Spark module and found through the service loader
 * ({@link DatasetToolCommand}): this module never names a class above it.
 * {@code --dry-run} prints what clean or vacuum would delete and the bytes it would free. Objects that are
 * not Stork parts or Stork bookkeeping are never deleted, nor attempt parts younger than the maintenance
 * floor ({@link MaintenanceLimits}). The command line is parsed strictly ({@link ToolArguments}): exit 2
 * with a one-line error and the usage, before any store is touched; exit 1 when the store fails or the
 * dataset names missing parts.
 */
public final class DatasetTool {

    private DatasetTool() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(args);
        } catch (ToolArguments.UsageException e) {
            System.err.println("stork-dataset: " + e.getMessage());
            System.err.println(ToolArguments.usage());
            status = 2;
        } catch (IllegalArgumentException e) {
            System.err.println("stork-dataset: " + e.getMessage());
            status = 2;
        } catch (IOException e) {
            System.err.println("stork-dataset: " + e.getMessage());
            status = 1;
        }
        System.exit(status);
    }

    /**
     * Runs a command line: 0 done, 1 the dataset names missing parts; a bad command line throws
     * {@link ToolArguments.UsageException} before any store is touched.
     */
    static int run(String[] args) throws IOException {
        ToolArguments arguments = ToolArguments.parse(args);
        Configuration conf = new Configuration();
        // Run by spark-submit (--class io.stork.commit.DatasetTool stork-spark-runtime.jar): its --conf
        // spark.hadoop.* settings arrive as system properties, as they would reach a Spark application.
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("spark.hadoop."))
                .forEach(k -> conf.set(k.substring("spark.hadoop.".length()), System.getProperty(k)));
        // Hadoop's service list may have been read before this jar joined the class path (spark-submit).
        if (conf.get("fs.stork.impl") == null) {
            conf.set("fs.stork.impl", "io.stork.hadoop.StorkFileSystem");
        }
        arguments.settings().forEach(conf::set);
        String command = arguments.command();
        Path root = new Path(arguments.uri());
        Progress progress = Progress.of(conf, command);
        if (command.equals("index") || command.equals("relayout")) {
            List<String> sparkArgs = new ArrayList<>(List.of(arguments.uri()));
            sparkArgs.addAll(arguments.operands());
            System.out.println(sparkCommand(command, sparkArgs.toArray(new String[0]), arguments.settings(), progress));
            return 0;
        }
        // The periods given on the command line are checked against the floor before the store is touched;
        // vacuum's default, the retention, once the manifest says whether the dataset keeps its own.
        MaintenanceLimits limits = command.equals("clean") || command.equals("vacuum")
                ? MaintenanceLimits.of(conf, root.toUri().getAuthority()) : null;
        Duration period = null;
        if (command.equals("clean")) {
            period = limits.check(arguments.olderThan() != null ? arguments.olderThan() : limits.floor(), "--older-than");
        } else if (command.equals("vacuum") && arguments.retention() != null) {
            period = limits.check(arguments.retention(), "--retention");
        } else if (command.equals("vacuum")) {
            StorkSettings.of(conf, root.toUri().getAuthority()).commitSettings(); // a bad key fails here, not midway
        }
        // Raw objects, not the manifest's view, and an instance of our own for that setting.
        conf.setBoolean("fs.stork.read.raw", true);
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        try (FileSystem fs = FileSystem.newInstance(root.toUri(), conf)) {
            List<String> operands = arguments.operands();
            switch (command) {
                case "history":
                    return DatasetHistory.history(fs, root);
                case "changes":
                    return DatasetHistory.changes(fs, root, ToolArguments.generation(operands.get(0)),
                            operands.size() > 1 ? ToolArguments.generation(operands.get(1)) : -1);
                case "restore":
                    return restore(fs, root, ToolArguments.generation(operands.get(0)), progress);
                case "stats":
                    return DatasetStatistics.print(fs, root, operands, System.out);
                case "set-property":
                    return changed(DatasetProperties.set(fs, root, ToolArguments.properties(operands)), fs, root);
                case "unset-property":
                    return changed(DatasetProperties.unset(fs, root, operands), fs, root);
                default:
                    break;
            }
            DatasetInspection inspection = DatasetInspection.of(fs, root, progress);
            System.out.print(inspection.report());
            if (command.equals("vacuum") && period == null) {
                // The dataset's own retention property, else the bucket's or session's key, else 7 days.
                StorkSettings settings = StorkSettings.of(conf, root.toUri().getAuthority())
                        .withDataset(inspection.manifest().map(m -> m.properties()).orElse(java.util.Map.of()));
                period = limits.check(settings.retention(), settings.retentionSource());
            }
            if (period != null) {
                DatasetMaintenance maintenance = new DatasetMaintenance(fs, inspection, command,
                        DatasetCommitter.settings(conf, inspection.root()).claimTimeout(), limits, progress, System.out);
                if (command.equals("clean")) {
                    maintenance.clean(arguments.dryRun(), period);
                } else {
                    maintenance.vacuum(arguments.dryRun(), period);
                }
            }
            return inspection.missing().isEmpty() ? 0 : 1;
        }
    }

    /** Runs a command's Spark jobs ({@code index}, {@code relayout}) through the command Stork's Spark module registers. */
    private static String sparkCommand(String command, String[] args, java.util.Map<String, String> settings,
                                       Progress progress) throws IOException {
        DatasetToolCommand found = null;
        for (DatasetToolCommand c : java.util.ServiceLoader.load(DatasetToolCommand.class,
                DatasetTool.class.getClassLoader())) {
            if (c.name().equals(command)) {
                found = c;
            }
        }
        if (found == null) {
            throw new IllegalArgumentException(command + " runs a Spark job and Spark is not on the class path: run "
                    + "spark-submit --class io.stork.commit.DatasetTool stork-spark-runtime-<version>.jar " + command
                    + " <dataset uri> " + (command.equals("index") ? "<format> [option=value ...]" : "<layout options>"));
        }
        progress.say("%s", found.starting(args)); // only once Spark is there: without it the tool says so in one line
        try {
            return found.run(args, settings);
        } catch (IOException | IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            // A Spark error (a path that is not there, a format that cannot read it): its innermost first line.
            Throwable inner = e;
            while (inner.getCause() != null && inner.getCause() != inner) {
                inner = inner.getCause();
            }
            String message = String.valueOf(inner.getMessage()).lines().findFirst().orElse(inner.toString());
            throw new IOException(command + " failed: " + message, e);
        }
    }

    private static int changed(io.stork.manifest.Manifest manifest, FileSystem fs, Path root) {
        System.out.printf("%s: generation %d names the same %d parts with properties %s (nothing rewritten)%n",
                fs.makeQualified(root), manifest.generation(), manifest.parts().size(), manifest.properties());
        return 0;
    }

    private static int restore(FileSystem fs, Path root, long generation, Progress progress) throws IOException {
        String job = "restore-" + UUID.randomUUID();
        progress.say("restoring %s to generation %d", fs.makeQualified(root), generation);
        var manifest = new DatasetCommitter(fs, root, job).restore(generation);
        System.out.printf("restored %s to generation %d: generation %d names %d parts, %,d bytes (nothing copied)%n",
                fs.makeQualified(root), generation, manifest.generation(), manifest.parts().size(),
                manifest.totalLength());
        return 0;
    }
}
