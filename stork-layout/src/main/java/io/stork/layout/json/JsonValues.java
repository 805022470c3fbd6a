package io.stork.layout.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as plain Java values (Map, List, String, Long, Double, Boolean, null) over Jackson's streaming core,
 * so the layout codecs read as a description of the format rather than as parser calls.
 */
final class JsonValues {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonValues() {
    }

    static String write(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    static Object parse(String json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() == null) {
                throw new IllegalArgumentException("empty JSON");
            }
            return read(p);
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static void write(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Long || value instanceof Integer) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double d) {
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("JSON has no " + d + "; write it as a string");
            }
            g.writeNumber(d);
        } else if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object item : list) {
                write(g, item);
            }
            g.writeEndArray();
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static Object read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    map.put(name, read(p));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(read(p));
                }
                return list;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT -> {
                return p.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return p.getDoubleValue();
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return p.getBooleanValue();
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected JSON token " + t);
        }
    }

    // Typed access with one-line errors naming the field, for readers of a saved form.

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object v, String what) {
        if (v instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new IllegalArgumentException(what + ": a JSON object was expected, not " + v);
    }

    static List<Object> list(Map<String, Object> m, String field) {
        if (m.get(field) instanceof List<?> l) {
            return new ArrayList<>(l);
        }
        throw new IllegalArgumentException("field '" + field + "': a JSON array was expected, not " + m.get(field));
    }

    static long number(Map<String, Object> m, String field) {
        if (m.get(field) instanceof Long l) {
            return l;
        }
        throw new IllegalArgumentException("field '" + field + "': an integer was expected, not " + m.get(field));
    }

    static double decimal(Map<String, Object> m, String field) {
        if (m.get(field) instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException("field '" + field + "': a number was expected, not " + m.get(field));
    }

    static String string(Map<String, Object> m, String field) {
        if (m.get(field) instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException("field '" + field + "': a string was expected, not " + m.get(field));
    }
}
