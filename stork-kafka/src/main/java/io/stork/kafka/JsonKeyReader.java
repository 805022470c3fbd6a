package io.stork.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.stork.layout.model.Column;
import io.stork.layout.model.ColumnType;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Key columns from a JSON object (the serialized value, UTF-8), read with Jackson's streaming parser: the
 * key columns are the object's top-level fields of the same names; other fields are skipped without being
 * materialized, and reading stops once every key column was seen. A JSON null is a null key value (routed
 * as the writer routes a null); a missing field fails.
 */
final class JsonKeyReader implements KeyReader {

    /** Thread-safe once configured; parsers are cheap and made per record. */
    private static final JsonFactory FACTORY = new JsonFactory();

    private final List<Column> columns;
    private final Map<String, Integer> indexOf;

    JsonKeyReader(List<Column> columns) {
        this.columns = List.copyOf(columns);
        Map<String, Integer> index = new HashMap<>();
        for (int k = 0; k < columns.size(); k++) {
            index.put(columns.get(k).name(), k);
        }
        this.indexOf = Map.copyOf(index);
    }

    @Override
    public Object[] key(Object value, byte[] json) {
        Object[] key = new Object[columns.size()];
        boolean[] seen = new boolean[columns.size()];
        int remaining = columns.size();
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("the value is not a JSON object");
            }
            while (remaining > 0 && p.nextToken() == JsonToken.FIELD_NAME) {
                Integer k = indexOf.get(p.currentName());
                JsonToken t = p.nextToken();
                if (k == null || seen[k]) {
                    p.skipChildren();
                    continue;
                }
                key[k] = value(columns.get(k), t, p);
                seen[k] = true;
                remaining--;
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the value is not valid JSON: " + KeyValues.abbreviate(
                    e.getOriginalMessage()) + " at character " + e.getLocation().getCharOffset());
        } catch (IOException e) {
            throw new IllegalArgumentException("the value could not be read as JSON: " + e.getMessage());
        }
        for (int k = 0; k < seen.length; k++) {
            if (!seen[k]) {
                throw new IllegalArgumentException(KeyValues.describe(columns.get(k)) + " is missing from the JSON object");
            }
        }
        return key;
    }

    @Override
    public String describe() {
        return "JSON objects";
    }

    private static Object value(Column c, JsonToken t, JsonParser p) throws IOException {
        ColumnType type = c.type();
        return switch (t) {
            case VALUE_NULL -> null;
            case VALUE_STRING -> KeyValues.parse(c, p.getText());
            case VALUE_NUMBER_INT -> switch (type) {
                case LONG, TIMESTAMP -> integer(c, p);
                case DOUBLE -> type.canonical(c.name(), p.getDoubleValue());
                case STRING -> throw mismatch(c, "a number");
            };
            case VALUE_NUMBER_FLOAT -> {
                if (type != ColumnType.DOUBLE) {
                    throw mismatch(c, "a fractional number (" + p.getText() + ")");
                }
                yield type.canonical(c.name(), p.getDoubleValue());
            }
            case START_OBJECT -> throw mismatch(c, "an object");
            case START_ARRAY -> throw mismatch(c, "an array");
            case VALUE_TRUE, VALUE_FALSE -> throw mismatch(c, "a boolean");
            default -> throw mismatch(c, String.valueOf(t));
        };
    }

    private static long integer(Column c, JsonParser p) throws IOException {
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new IllegalArgumentException(KeyValues.describe(c) + ": out of range: " + p.getText());
        }
        return p.getLongValue();
    }

    private static IllegalArgumentException mismatch(Column c, String found) {
        return new IllegalArgumentException(KeyValues.describe(c) + ": expected " + KeyValues.expected(c.type())
                + ", found " + found);
    }
}
