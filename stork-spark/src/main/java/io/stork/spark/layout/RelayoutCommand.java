package io.stork.spark.layout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.io.IOException;
import org.apache.spark.sql.SparkSession;

/**
 * {@code relayout} from a command line, as a Spark application (a relayout reads and writes rows, so it
 * runs where Spark does):
 * <pre>
 * spark-submit --class io.stork.spark.layout.RelayoutCommand stork-spark-runtime.jar \
 *     stork://bucket/events --kdtree lat,lon --buckets 64
 * </pre>
 * The command line is checked before any store is touched: exit 2 with the usage on a mistake, exit 1 with
 * one line when the relayout fails (nothing committed), 0 with a summary line when it committed.
 */
public final class RelayoutCommand {

    static final String USAGE = "usage: spark-submit --class io.stork.spark.layout.RelayoutCommand <stork-spark-runtime "
            + "jar> <dataset uri> (--kdtree <col,col,...> | --grid <lat,lon> [--precision 1]) "
            + "(--buckets <n> | --target-object-size <bytes, e.g. 128m>) [--no-history] [--format <format>] "
            + "[--sample-rows <n>] [--option key=value ...]";

    /** A parsed command line. */
    record Arguments(String dataset, List<String> columns, boolean grid, int precision, int buckets,
                     long targetBytes, boolean history, String format, int sampleRows, Map<String, String> options) {

        LayoutSpec spec() {
            int n = buckets > 0 ? buckets : 1; // replaced by the target size's count when one is given
            LayoutSpec spec = grid ? LayoutSpec.grid(columns.get(0), columns.get(1), precision, n)
                    : LayoutSpec.kdTree(columns, n);
            return sampleRows > 0 ? spec.sampleRows(sampleRows) : spec;
        }

        Relayout relayout(SparkSession spark) {
            Relayout r = Relayout.of(spark, dataset, spec()).useStoredHistory(history);
            if (format != null) {
                r = r.format(format);
            }
            if (targetBytes > 0) {
                r = r.targetObjectBytes(targetBytes);
            }
            for (Map.Entry<String, String> e : options.entrySet()) {
                r = r.option(e.getKey(), e.getValue());
            }
            return r;
        }
    }

    private RelayoutCommand() {
    }

    public static void main(String[] args) {
        try {
            parse(args); // a mistake is a usage error (exit 2) before Spark starts
        } catch (IllegalArgumentException e) {
            System.err.println("relayout: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        try {
            System.out.println(runForTool(args, Map.of()));
            System.exit(0);
        } catch (Exception e) {
            System.err.println("relayout: " + oneLine(e));
            System.exit(1);
        }
    }

    /**
     * The {@code relayout} command of the dataset tool ({@code io.stork.commit.DatasetTool}, through
     * {@link io.stork.spark.tool.RelayoutToolCommand}, found by the service loader): {@code <dataset uri> --kdtree ... }, with the tool's {@code -D}
     * settings as the session's Hadoop settings. Returns the summary line; IllegalArgumentException, one
     * line, for a bad command line (before any store is touched).
     */
    public static String runForTool(String[] args, Map<String, String> hadoopSettings) throws IOException {
        Arguments parsed = parse(args);
        return io.stork.spark.ToolSession.run("stork-relayout", hadoopSettings, spark -> {
            Relayout.Result r = parsed.relayout(spark).run();
            return String.format(Locale.ROOT, "relayout: %s generation %d -> %d: %d parts (%d bytes) rewritten into "
                    + "%d parts (%d bytes) by a %s over %s, %s; %d parts committed meanwhile kept", parsed.dataset(),
                    r.sourceGeneration(), r.generation(), r.partsBefore(), r.bytesBefore(), r.partsAfter(),
                    r.bytesAfter(), r.model().kind(), String.join(",", parsed.columns()), r.historyQueries() == 0
                            ? "without query history" : "steered by " + r.historyQueries() + " past queries",
                    r.partsKept());
        });
    }

    /** The innermost message: Spark wraps a commit's failure in job-abort exceptions. */
    static String oneLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return message.replace('\n', ' ');
    }

    static Arguments parse(String[] args) {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        String dataset = null;
        List<String> columns = null;
        boolean grid = false;
        int precision = 1;
        int buckets = 0;
        long target = 0;
        boolean history = true;
        String format = null;
        int sampleRows = 0;
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < rest.size(); i++) {
            String a = rest.get(i);
            switch (a) {
                case "--kdtree", "--grid" -> {
                    if (columns != null) {
                        throw new IllegalArgumentException("give one of --kdtree and --grid, once");
                    }
                    grid = a.equals("--grid");
                    columns = List.of(value(rest, ++i, a).split(","));
                    if (columns.stream().anyMatch(String::isBlank) || (grid && columns.size() != 2)) {
                        throw new IllegalArgumentException(a + " takes " + (grid ? "two columns: lat,lon" :
                                "comma-separated column names"));
                    }
                }
                case "--precision" -> precision = whole(value(rest, ++i, a), a, 0);
                case "--buckets" -> buckets = whole(value(rest, ++i, a), a, 1);
                case "--target-object-size" -> target = bytes(value(rest, ++i, a));
                case "--no-history" -> history = false;
                case "--format" -> format = value(rest, ++i, a);
                case "--sample-rows" -> sampleRows = whole(value(rest, ++i, a), a, 1);
                case "--option" -> {
                    String kv = value(rest, ++i, a);
                    int eq = kv.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException("--option takes key=value, not '" + kv + "'");
                    }
                    options.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
                default -> {
                    if (a.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + a);
                    }
                    if (dataset != null) {
                        throw new IllegalArgumentException("one dataset, not '" + dataset + "' and '" + a + "'");
                    }
                    if (!a.startsWith("stork://")) {
                        throw new IllegalArgumentException("a relayout rewrites a stork:// dataset, not '" + a + "'");
                    }
                    dataset = a;
                }
            }
        }
        if (dataset == null) {
            throw new IllegalArgumentException("no dataset given");
        }
        if (columns == null) {
            throw new IllegalArgumentException("give the layout: --kdtree <columns> or --grid <lat,lon>");
        }
        if ((buckets > 0) == (target > 0)) {
            throw new IllegalArgumentException("give one of --buckets and --target-object-size");
        }
        return new Arguments(dataset, columns, grid, precision, buckets, target, history, format, sampleRows, options);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size() || args.get(i).startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    private static int whole(String v, String option, int min) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " takes a whole number, at least " + min + ", not '" + v + "'");
    }

    /** 134217728, 128m, 1g (binary units). */
    static long bytes(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        long unit = s.endsWith("k") ? 1L << 10 : s.endsWith("m") ? 1L << 20 : s.endsWith("g") ? 1L << 30 : 1;
        String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
        try {
            long n = Long.parseLong(digits);
            if (n >= 1) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--target-object-size takes a size such as 134217728, 128m or 1g, not '"
                + v + "'");
    }
}
