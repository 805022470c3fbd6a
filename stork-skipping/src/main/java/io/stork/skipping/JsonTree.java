package io.stork.skipping;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON values as plain Java ({@code Map<String, ?>}, {@code List<?>}, String, Long, Double, Boolean, null):
 * the form index plug-ins see, so that their API names no JSON library (the runtime jar relocates its own).
 */
final class JsonTree {

    private JsonTree() {
    }

    static void write(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof java.math.BigDecimal big) {
            g.writeNumber(big);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("JSON has no " + d + ": write it as a string");
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

    /** The value at the parser's current token (consumed through its end). */
    static Object read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) {
            throw new IOException("unexpected end of JSON");
        }
        return switch (t) {
            case VALUE_NULL -> null;
            case VALUE_STRING -> p.getText();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? p.getDecimalValue() : (Object) p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case START_ARRAY -> {
                List<Object> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(p));
                }
                yield items;
            }
            case START_OBJECT -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    fields.put(name, read(p));
                }
                yield fields;
            }
            default -> throw new IOException("unexpected JSON token " + t);
        };
    }
}
