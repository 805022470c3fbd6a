package io.stork.skipping.collect;

import io.stork.skipping.ColumnType;
import io.stork.skipping.spi.IndexCollector;
import io.stork.skipping.spi.IndexType;
import io.stork.skipping.spi.IndexTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which columns of a write get statistics, and which indexes beyond min/max and null counts: from the
 * write's options (or the session's {@code spark.stork.skipping.*} defaults).
 *
 * <ul>
 *   <li>{@code stork.skipping.enabled} (default true)</li>
 *   <li>{@code stork.skipping.columns}: the columns, comma-separated; default the first
 *       {@code stork.skipping.numColumns} (default 32) columns of a supported type, as Delta does</li>
 *   <li>{@code stork.skipping.indexes}: further indexes, {@code column:type} comma-separated
 *       ({@code city:values,user_id:bloom}); such a column is indexed even beyond the first N</li>
 *   <li>{@code stork.skipping.stringPrefix}: code points kept of string bounds (default 32)</li>
 *   <li>{@code stork.skipping.geo}: latitude/longitude pairs, {@code lat:lon} comma-separated, that get
 *       a {@code geo} index of up to {@code stork.skipping.geo.boxes} (default 8) boxes per part; both
 *       columns floating point, both indexed</li>
 * </ul>
 * Serializable: built on the driver, used by every task that writes.
 */
public final class SkippingSpec implements Serializable {

    public static final String PREFIX = "stork.skipping.";
    public static final String ENABLED = PREFIX + "enabled";
    public static final String COLUMNS = PREFIX + "columns";
    public static final String NUM_COLUMNS = PREFIX + "numColumns";
    public static final String INDEXES = PREFIX + "indexes";
    public static final String STRING_PREFIX = PREFIX + "stringPrefix";
    public static final String GEO = PREFIX + "geo";
    public static final String GEO_BOXES = PREFIX + "geo.boxes";

    /** A column to index: its name, its position in the written rows, its kind, and its extra index types. */
    public record Column(String name, int ordinal, ColumnType type, List<String> indexTypes) implements Serializable {
    }

    /** A geo index: positions in {@link #columns()} of the latitude and longitude columns. */
    public record GeoPair(int latitude, int longitude) implements Serializable {
    }

    private final List<Column> columns;
    private final List<GeoPair> geo;
    private final int geoBoxes;
    private final int stringPrefix;
    private final Map<String, String> options;

    private SkippingSpec(List<Column> columns, List<GeoPair> geo, int geoBoxes, int stringPrefix,
                         Map<String, String> options) {
        this.columns = List.copyOf(columns);
        this.geo = List.copyOf(geo);
        this.geoBoxes = geoBoxes;
        this.stringPrefix = stringPrefix;
        this.options = Map.copyOf(options);
    }

    /**
     * The spec for rows whose columns are {@code schema} (name to kind, in order; a null kind: a type
     * statistics are not kept for). {@code options}: the {@code stork.skipping.*} settings, keys in lower
     * or original case. Fails with one line naming a bad setting.
     */
    public static SkippingSpec of(List<Map.Entry<String, ColumnType>> schema, Map<String, String> options,
                                  IndexTypes types) {
        Map<String, String> opts = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(PREFIX)) {
                opts.put(canonicalKey(k), v);
            }
        });
        if (!Boolean.parseBoolean(opts.getOrDefault(ENABLED, "true").trim())) {
            return new SkippingSpec(List.of(), List.of(), 8, 32, opts);
        }
        int prefix = positive(opts, STRING_PREFIX, 32);
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (String item : split(opts.get(INDEXES))) {
            int colon = item.lastIndexOf(':');
            if (colon <= 0 || colon == item.length() - 1) {
                throw new IllegalArgumentException(INDEXES + ": '" + item + "' is not column:type (e.g. city:values)");
            }
            String type = item.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            if (types.get(type).isEmpty()) {
                throw new IllegalArgumentException(INDEXES + ": no index type '" + type + "' (known: " + types.names() + ")");
            }
            extra.computeIfAbsent(item.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(type);
        }
        List<String[]> geoPairs = new ArrayList<>();
        for (String item : split(opts.get(GEO))) {
            String[] pair = item.split(":");
            if (pair.length != 2 || pair[0].isBlank() || pair[1].isBlank()) {
                throw new IllegalArgumentException(GEO + ": '" + item + "' is not latitude:longitude (e.g. lat:lon)");
            }
            geoPairs.add(new String[] {pair[0].trim(), pair[1].trim()});
        }
        int geoBoxes = positive(opts, GEO_BOXES, 8);
        if (geoBoxes < 1) {
            throw new IllegalArgumentException(GEO_BOXES + " must be at least 1");
        }
        List<String> named = split(opts.get(COLUMNS));
        int first = positive(opts, NUM_COLUMNS, 32);
        List<Column> chosen = new ArrayList<>();
        int supported = 0;
        for (int i = 0; i < schema.size(); i++) {
            String name = schema.get(i).getKey();
            ColumnType kind = schema.get(i).getValue();
            String lower = name.toLowerCase(Locale.ROOT);
            boolean wanted = named.isEmpty() ? kind != null && supported < first
                    : named.stream().anyMatch(n -> n.equalsIgnoreCase(name));
            if (kind != null) {
                supported++;
            }
            wanted |= extra.containsKey(lower);
            wanted |= geoPairs.stream().anyMatch(p -> p[0].equalsIgnoreCase(name) || p[1].equalsIgnoreCase(name));
            if (!wanted) {
                continue;
            }
            if (kind == null) {
                throw new IllegalArgumentException(PREFIX + "*: column '" + name + "' has a type statistics are not kept for");
            }
            List<String> extraTypes = extra.getOrDefault(lower, List.of());
            for (String t : extraTypes) {
                if (!types.get(t).get().supports(kind)) {
                    throw new IllegalArgumentException(INDEXES + ": index type '" + t + "' does not support column '"
                            + name + "' (" + kind.jsonName() + ")");
                }
            }
            chosen.add(new Column(name, i, kind, extraTypes));
        }
        for (String n : named) {
            if (chosen.stream().noneMatch(c -> c.name().equalsIgnoreCase(n))) {
                throw new IllegalArgumentException(COLUMNS + ": no column '" + n + "' in the written rows");
            }
        }
        for (String n : extra.keySet()) {
            if (chosen.stream().noneMatch(c -> c.name().equalsIgnoreCase(n))) {
                throw new IllegalArgumentException(INDEXES + ": no column '" + n + "' in the written rows");
            }
        }
        List<GeoPair> geo = new ArrayList<>();
        for (String[] pair : geoPairs) {
            int lat = position(chosen, pair[0]);
            int lon = position(chosen, pair[1]);
            if (lat < 0 || lon < 0) {
                throw new IllegalArgumentException(GEO + ": no column '" + (lat < 0 ? pair[0] : pair[1])
                        + "' in the written rows");
            }
            if (chosen.get(lat).type() != ColumnType.DOUBLE || chosen.get(lon).type() != ColumnType.DOUBLE) {
                throw new IllegalArgumentException(GEO + ": '" + pair[0] + "' and '" + pair[1]
                        + "' must both be float or double columns");
            }
            geo.add(new GeoPair(lat, lon));
        }
        return new SkippingSpec(chosen, geo, geoBoxes, prefix, opts);
    }

    private static int position(List<Column> chosen, String name) {
        for (int i = 0; i < chosen.size(); i++) {
            if (chosen.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    public List<Column> columns() {
        return columns;
    }

    public boolean isEmpty() {
        return columns.isEmpty();
    }

    /** A collector for one part, with fresh index collectors from {@code types}. */
    public PartStatisticsCollector newCollector(IndexTypes types) {
        List<String> names = new ArrayList<>();
        List<ColumnCollector> collectors = new ArrayList<>();
        for (Column c : columns) {
            Map<String, IndexCollector> indexes = new LinkedHashMap<>();
            for (String t : c.indexTypes()) {
                IndexType type = types.get(t).orElseThrow(() -> new IllegalStateException("index type " + t + " not loaded"));
                indexes.put(t, type.newCollector(c.type(), options));
            }
            names.add(c.name());
            collectors.add(new ColumnCollector(c.type(), stringPrefix, indexes));
        }
        List<PartStatisticsCollector.GeoPair> pairs = new ArrayList<>();
        for (GeoPair pair : geo) {
            pairs.add(new PartStatisticsCollector.GeoPair(pair.latitude(), pair.longitude(),
                    new GeoCollector(columns.get(pair.longitude()).name(), geoBoxes)));
        }
        return new PartStatisticsCollector(names, collectors, pairs);
    }

    private static String canonicalKey(String key) {
        for (String known : new String[] {ENABLED, COLUMNS, NUM_COLUMNS, INDEXES, STRING_PREFIX, GEO, GEO_BOXES}) {
            if (known.equalsIgnoreCase(key)) {
                return known;
            }
        }
        return key.toLowerCase(Locale.ROOT); // index types' own keys are lower case
    }

    private static int positive(Map<String, String> opts, String key, int fallback) {
        String v = opts.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number ≥ 0, not '" + v + "'");
        }
    }

    private static List<String> split(String value) {
        List<String> items = new ArrayList<>();
        if (value != null) {
            for (String s : value.split(",")) {
                if (!s.isBlank()) {
                    items.add(s.trim());
                }
            }
        }
        return items;
    }
}
