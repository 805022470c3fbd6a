package io.stork.skipping;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stork.skipping.spi.ColumnIndex;
import io.stork.skipping.spi.IndexType;
import io.stork.skipping.spi.IndexTypes;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON of a part's statistics, as the manifest carries it ({@code parts[].stats}):
 * <pre>{"v":1,"rows":1000,"columns":{"id":{"type":"long","nulls":0,"min":1,"max":999},
 *  "name":{"type":"string","nulls":2,"min":"Ab","max":"Zz…","maxPrefix":true,"indexes":{"bloom":"…"}}}}</pre>
 * {@code nan} appears for doubles that had NaN; {@code min}/{@code max} are absent when the column holds
 * only nulls (or NaN). Unknown fields and unknown index types are skipped, so a newer writer's statistics
 * are read as far as they are understood.
 */
public final class StatisticsCodec {

    public static final int VERSION = 1;
    private static final JsonFactory JSON = new JsonFactory();

    private StatisticsCodec() {
    }

    public static String write(PartStatistics stats) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("v", VERSION);
            g.writeNumberField("rows", stats.rows());
            g.writeObjectFieldStart("columns");
            for (Map.Entry<String, ColumnStatistics> e : stats.columns().entrySet()) {
                g.writeFieldName(e.getKey());
                writeColumn(g, e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeColumn(JsonGenerator g, ColumnStatistics c) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", c.type().jsonName());
        g.writeNumberField("nulls", c.nullCount());
        if (c.nanCount() > 0) {
            g.writeNumberField("nan", c.nanCount());
        }
        if (c.hasBounds()) {
            g.writeFieldName("min");
            JsonTree.write(g, ValueJson.toJson(c.type(), c.min()));
            g.writeFieldName("max");
            JsonTree.write(g, ValueJson.toJson(c.type(), c.max()));
            if (c.maxIsPrefix()) {
                g.writeBooleanField("maxPrefix", true);
            }
        }
        if (!c.indexes().isEmpty()) {
            g.writeObjectFieldStart("indexes");
            for (ColumnIndex index : c.indexes().values()) {
                g.writeFieldName(index.type());
                JsonTree.write(g, index.toJson());
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /**
     * Reads statistics; empty for a newer format version. Throws IOException for JSON that is not
     * statistics (the caller reads the part, never skips on what it could not read).
     */
    public static Optional<PartStatistics> read(String json, IndexTypes types) throws IOException {
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, "statistics");
            long rows = -1;
            int version = -1;
            Map<String, ColumnStatistics> columns = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "v" -> version = p.getIntValue();
                    case "rows" -> rows = p.getLongValue();
                    case "columns" -> {
                        expect(value, JsonToken.START_OBJECT, "columns");
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String name = p.currentName();
                            p.nextToken();
                            columns.put(name, readColumn(p, types));
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (version > VERSION) {
                return Optional.empty();
            }
            if (rows < 0) {
                throw new IOException("statistics without a row count");
            }
            return Optional.of(new PartStatistics(rows, columns));
        } catch (IllegalArgumentException | ClassCastException e) {
            throw new IOException("malformed statistics: " + e.getMessage(), e);
        }
    }

    private static ColumnStatistics readColumn(JsonParser p, IndexTypes types) throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, "a column's statistics");
        ColumnType type = null;
        long nulls = 0;
        long nans = 0;
        boolean maxPrefix = false;
        // Bounds and indexes are typed by "type", which the writer puts first.
        Object min = null;
        Object max = null;
        Map<String, ColumnIndex> indexes = Map.of();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "type" -> type = ColumnType.fromJsonName(p.getText());
                case "nulls" -> nulls = p.getLongValue();
                case "nan" -> nans = p.getLongValue();
                case "min" -> min = readValue(p, requireType(type));
                case "max" -> max = readValue(p, requireType(type));
                case "maxPrefix" -> maxPrefix = p.getBooleanValue();
                case "indexes" -> {
                    expect(p.currentToken(), JsonToken.START_OBJECT, "indexes");
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        p.nextToken();
                        Optional<IndexType> indexType = types.get(name);
                        if (indexType.isPresent()) {
                            if (indexes.isEmpty()) {
                                indexes = new LinkedHashMap<>();
                            }
                            indexes.put(name, indexType.get().fromJson(JsonTree.read(p), requireType(type)));
                        } else {
                            p.skipChildren(); // a plug-in this reader lacks: the index is not used
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        return new ColumnStatistics(requireType(type), nulls, nans, min, max, maxPrefix, indexes);
    }

    /** The {@code indexes} object of a column of {@code type}, as JSON text; index types not in {@code types} left out. */
    static Map<String, ColumnIndex> readIndexes(String json, ColumnType type, IndexTypes types) throws IOException {
        Map<String, ColumnIndex> indexes = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, "indexes");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                Optional<IndexType> indexType = types.get(name);
                if (indexType.isPresent()) {
                    indexes.put(name, indexType.get().fromJson(JsonTree.read(p), type));
                } else {
                    p.skipChildren();
                }
            }
        }
        return indexes;
    }

    /**
     * A bound: integers straight from the parser (a table of a million parts reads ten million of them),
     * anything else through its JSON value, as {@link ValueJson} defines it.
     */
    private static Object readValue(JsonParser p, ColumnType type) throws IOException {
        if (type == ColumnType.LONG && p.currentToken() == JsonToken.VALUE_NUMBER_INT
                && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return p.getLongValue();
        }
        return ValueJson.fromJson(type, JsonTree.read(p));
    }

    private static ColumnType requireType(ColumnType type) throws IOException {
        if (type == null) {
            throw new IOException("a column's \"type\" must come first");
        }
        return type;
    }

    private static void expect(JsonToken actual, JsonToken expected, String what) throws IOException {
        if (actual != expected) {
            throw new IOException(what + ": expected " + expected + ", found " + actual);
        }
    }
}
