package io.stork.skipping;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Statistics computed for objects Stork did not write (the {@code index} command), kept on the store
 * beside them ({@code <dataset>/_stork/skipping-index.json}) and keyed by each object's path relative to
 * the dataset, length and ETag, so that a changed object is never judged by another's statistics:
 * <pre>{"v":1,"format":"csv","objects":[{"path":"2024/a.csv","length":1234,"etag":"\"9b2c\"",
 *   "stats":{"v":1,"rows":10,"columns":{...}}}]}</pre>
 */
public record ObjectIndex(String format, List<Entry> objects) {

    public static final int VERSION = 1;
    /** Where the index of a dataset lives, relative to the dataset's root. */
    public static final String LOCATION = "_stork/skipping-index.json";
    private static final JsonFactory JSON = new JsonFactory();

    /** One object: where, which version (length and ETag; the ETag may be null where the store has none). */
    public record Entry(String path, long length, String etag, String statsJson) {
        public Entry {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(statsJson, "statsJson");
        }
    }

    public ObjectIndex {
        objects = List.copyOf(objects);
    }

    /** The entries by relative path. */
    public Map<String, Entry> byPath() {
        Map<String, Entry> map = new HashMap<>();
        for (Entry e : objects) {
            map.put(e.path(), e);
        }
        return map;
    }

    public void write(OutputStream out) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("v", VERSION);
            if (format != null) {
                g.writeStringField("format", format);
            }
            g.writeArrayFieldStart("objects");
            for (Entry e : objects) {
                g.writeStartObject();
                g.writeStringField("path", e.path());
                g.writeNumberField("length", e.length());
                if (e.etag() != null) {
                    g.writeStringField("etag", e.etag());
                }
                g.writeFieldName("stats");
                g.writeRawValue(e.statsJson());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    /** Reads an index; IOException (one line) for one that is corrupt or of a newer version. */
    public static ObjectIndex read(InputStream in, String source) throws IOException {
        try (JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(source + ": not a Stork skipping index");
            }
            String format = null;
            List<Entry> objects = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "v" -> {
                        if (p.getIntValue() > VERSION) {
                            throw new IOException(source + ": skipping index version " + p.getIntValue()
                                    + " is newer than this reader's " + VERSION);
                        }
                    }
                    case "format" -> format = p.getText();
                    case "objects" -> {
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            objects.add(entry(p));
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            return new ObjectIndex(format, objects);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            throw new IOException(source + ": corrupt skipping index (" + e.getMessage() + ")", e);
        }
    }

    private static Entry entry(JsonParser p) throws IOException {
        String path = null;
        long length = -1;
        String etag = null;
        String stats = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "path" -> path = p.getText();
                case "length" -> length = p.getLongValue();
                case "etag" -> etag = p.getText();
                case "stats" -> {
                    StringWriter raw = new StringWriter();
                    try (JsonGenerator g = JSON.createGenerator(raw)) {
                        JsonTree.write(g, JsonTree.read(p));
                    }
                    stats = raw.toString();
                }
                default -> p.skipChildren();
            }
        }
        return new Entry(path, length, etag, stats);
    }
}
