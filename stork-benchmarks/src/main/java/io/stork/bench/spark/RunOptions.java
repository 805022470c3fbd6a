package io.stork.bench.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} command-line options, with a one-line error for anything unknown or malformed. */
final class RunOptions {

    private final Map<String, String> values = new LinkedHashMap<>();

    RunOptions(String[] args, Map<String, String> defaults) {
        values.putAll(defaults);
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (!name.startsWith("--") || !defaults.containsKey(name.substring(2))) {
                throw new IllegalArgumentException("unknown option '" + name + "'; known: --"
                        + String.join(", --", defaults.keySet()));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
            values.put(name.substring(2), args[++i]);
        }
    }

    String get(String name) {
        return values.get(name);
    }

    int integer(String name) {
        try {
            return Integer.parseInt(values.get(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, not '" + values.get(name) + "'");
        }
    }

    long longValue(String name) {
        try {
            return Long.parseLong(values.get(name).replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, not '" + values.get(name) + "'");
        }
    }

    List<String> list(String name) {
        String value = values.get(name);
        return value.isBlank() ? List.of() : new ArrayList<>(Arrays.asList(value.split(",")));
    }

    BenchmarkSizes sizes() {
        return new BenchmarkSizes(longValue("object-kib") * 1024, integer("small-objects"), integer("large-factor"),
                longValue("sales-rows"));
    }

    static Map<String, String> sizeDefaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("object-kib", "4096");
        defaults.put("small-objects", "8");
        defaults.put("large-factor", "10");
        defaults.put("sales-rows", "1000000");
        return defaults;
    }

    /** The same sizes as arguments, to hand to a child process. */
    List<String> sizeArguments() {
        List<String> args = new ArrayList<>();
        sizeDefaults().keySet().forEach(k -> {
            args.add("--" + k);
            args.add(values.get(k));
        });
        return args;
    }
}
