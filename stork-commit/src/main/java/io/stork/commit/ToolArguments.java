package io.stork.commit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The dataset tool's command line, parsed strictly before anything touches a store: an unknown or
 * misplaced option, a missing value, a duration without a unit or an operand that is not a generation
 * number is a {@link UsageException}, never a guess (a mistyped {@code --dryrun} once ran a real vacuum).
 *
 * @param command  the command
 * @param uri      the dataset
 * @param operands what follows the dataset (generations; the index command's format and options; the key
 *                 columns stats measures the separation over)
 * @param settings the {@code -Dkey=value} settings, in order
 */
record ToolArguments(String command, String uri, List<String> operands, boolean dryRun, Duration olderThan,
                     Duration retention, Map<String, String> settings) {

    /** Each command's options and operands, as the usage shows them. */
    private enum Command {
        INSPECT("inspect", Set.of(), 0, 0, ""),
        STATS("stats", Set.of(), 0, Integer.MAX_VALUE, " [<key column> ...]"),
        HISTORY("history", Set.of(), 0, 0, ""),
        CHANGES("changes", Set.of(), 1, 2, " <from generation> [<to generation>]"),
        RESTORE("restore", Set.of(), 1, 1, " <generation>"),
        CLEAN("clean", Set.of("--dry-run", "--older-than"), 0, 0, ""),
        VACUUM("vacuum", Set.of("--dry-run", "--retention"), 0, 0, ""),
        SET_PROPERTY("set-property", Set.of(), 1, Integer.MAX_VALUE, " <key>=<value> ..."),
        UNSET_PROPERTY("unset-property", Set.of(), 1, Integer.MAX_VALUE, " <key> ..."),
        INDEX("index", Set.of(), 1, Integer.MAX_VALUE, " <format> [option=value ...]"),
        /** Its layout options are checked by the relayout itself (io.stork.spark.layout.RelayoutCommand). */
        RELAYOUT("relayout", Set.of(), 2, Integer.MAX_VALUE, " (--kdtree <col,...> | --grid <lat,lon> [--precision 1]) "
                + "(--buckets <n> | --target-object-size <128m>) [--no-history] [--format <f>] [--option k=v ...]");

        final String name;
        final Set<String> options;
        final int minOperands;
        final int maxOperands;
        final String operandUsage;

        Command(String name, Set<String> options, int minOperands, int maxOperands, String operandUsage) {
            this.name = name;
            this.options = options;
            this.minOperands = minOperands;
            this.maxOperands = maxOperands;
            this.operandUsage = operandUsage;
        }

        String usage() {
            StringBuilder b = new StringBuilder("stork-dataset ").append(name);
            if (options.contains("--dry-run")) {
                b.append(" [--dry-run]");
            }
            if (options.contains("--older-than")) {
                b.append(" [--older-than 24h]");
            }
            if (options.contains("--retention")) {
                b.append(" [--retention 7d]");
            }
            return b.append(" [-Dkey=value ...] <dataset uri>").append(operandUsage).toString();
        }

        static Command named(String name) {
            for (Command c : values()) {
                if (c.name.equals(name)) {
                    return c;
                }
            }
            return null;
        }
    }

    private static final Set<String> VALUE_OPTIONS = Set.of("--older-than", "--retention");
    private static final Pattern DURATION = Pattern.compile("(\\d+)(s|m|h|d)");

    /** A command line the tool refuses, before touching any store. */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** Every command's usage, one per line; durations take a unit: s, m, h or d. */
    static String usage() {
        StringBuilder b = new StringBuilder("usage:");
        for (Command c : Command.values()) {
            b.append("\n  ").append(c.usage());
        }
        return b.append("\n  (durations take a unit: 90s, 60m, 24h, 7d)").toString();
    }

    static ToolArguments parse(String[] args) {
        Command command = null;
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                command = Command.named(arg);
                if (command == null) {
                    throw new UsageException("unknown command '" + arg + "'");
                }
                break;
            }
        }
        if (command == null) {
            throw new UsageException("missing command");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        List<String> positional = new ArrayList<>();
        boolean dryRun = false;
        Duration olderThan = null;
        Duration retention = null;
        boolean commandSeen = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("-D")) {
                int eq = arg.indexOf('=');
                if (eq <= 2) {
                    throw new UsageException("a setting is -Dkey=value, not '" + shown(arg) + "'");
                }
                settings.put(arg.substring(2, eq), arg.substring(eq + 1));
            } else if (command == Command.RELAYOUT && arg.startsWith("--") && !positional.isEmpty()) {
                positional.add(arg); // after the dataset: the relayout's own options
            } else if (arg.startsWith("-") && !isNegativeNumber(arg)) {
                if (!command.options.contains(arg)) {
                    boolean known = arg.equals("--dry-run") || VALUE_OPTIONS.contains(arg);
                    throw new UsageException(known ? command.name + " takes no " + arg + " option"
                            : "unknown option '" + shown(arg) + "'");
                }
                if (arg.equals("--dry-run")) {
                    dryRun = true;
                    continue;
                }
                if (i + 1 >= args.length || args[i + 1].startsWith("-")) {
                    throw new UsageException("missing value for " + arg + " (a duration such as 24h)");
                }
                Duration value = duration(arg, args[++i]);
                if (arg.equals("--older-than")) {
                    olderThan = value;
                } else {
                    retention = value;
                }
            } else if (!commandSeen) {
                commandSeen = true; // the command itself, found above
            } else {
                positional.add(arg);
            }
        }
        if (positional.isEmpty()) {
            throw new UsageException("missing <dataset uri> for " + command.name);
        }
        String uri = positional.get(0);
        if (!uri.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
            throw new UsageException("'" + shown(uri) + "' is not a dataset URI (e.g. stork://bucket/path)");
        }
        List<String> operands = List.copyOf(positional.subList(1, positional.size()));
        if (operands.size() < command.minOperands) {
            throw new UsageException(command.name + " needs" + command.operandUsage);
        }
        if (operands.size() > command.maxOperands) {
            throw new UsageException("unexpected argument '" + shown(operands.get(command.maxOperands)) + "' for "
                    + command.name);
        }
        if (command == Command.CHANGES || command == Command.RESTORE) {
            operands.forEach(ToolArguments::generation);
        }
        if (command == Command.SET_PROPERTY) {
            properties(operands); // checked before any store is touched
        }
        return new ToolArguments(command.name, uri, operands, dryRun, olderThan, retention, settings);
    }

    /** {@code set-property}'s operands, {@code key=value} each, checked as dataset properties. */
    static Map<String, String> properties(List<String> operands) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String operand : operands) {
            int eq = operand.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("a property is key=value, not '" + shown(operand) + "'");
            }
            String key = io.stork.hadoop.settings.DatasetPropertyKeys.normalize(operand.substring(0, eq));
            String value = operand.substring(eq + 1);
            try {
                io.stork.hadoop.settings.DatasetPropertyKeys.check(key, value);
                DatasetProperties.checkSkippingKey(key);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            properties.put(key, value);
        }
        return properties;
    }

    /** A generation number operand. */
    static long generation(String text) {
        try {
            long generation = Long.parseLong(text);
            if (generation >= 0) {
                return generation;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("'" + shown(text) + "' is not a generation number");
    }

    /** {@code 90s}, {@code 60m}, {@code 24h}, {@code 7d}: a unit is required (a bare 7 was once 7 minutes). */
    static Duration duration(String option, String text) {
        if (!DURATION.matcher(text.trim().toLowerCase(Locale.ROOT)).matches()) {
            throw new UsageException(option + " " + text + ": not a duration with a unit (90s, 60m, 24h, 7d)");
        }
        return io.stork.hadoop.settings.SettingValues.duration(option, text); // the one duration parser
    }

    private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(secret|password|token|key).*");

    /**
     * An argument as an error may show it: a {@code name=value} whose name looks like a secret's (a
     * setting given without its {@code -D}) shows its name only, since errors end up in logs.
     */
    static String shown(String arg) {
        int eq = arg.indexOf('=');
        return eq > 0 && SECRET_NAME.matcher(arg.substring(0, eq)).matches() ? arg.substring(0, eq) + "=<hidden>" : arg;
    }

    private static boolean isNegativeNumber(String arg) {
        return arg.matches("-\\d+");
    }
}
