package io.stork.skipping;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Canonical values in JSON: longs and finite doubles as numbers, decimals as strings (no precision lost
 * to a double), non-finite doubles as "NaN", "Infinity", "-Infinity". For index plug-ins as well.
 */
public final class ValueJson {

    private ValueJson() {
    }

    public static void write(JsonGenerator g, ColumnType type, Object value) throws IOException {
        switch (type) {
            case LONG -> g.writeNumber((Long) value);
            case DOUBLE -> {
                double d = (Double) value;
                if (Double.isFinite(d)) {
                    g.writeNumber(d);
                } else {
                    g.writeString(Double.toString(d));
                }
            }
            case DECIMAL -> g.writeString(((BigDecimal) value).toPlainString());
            case STRING -> g.writeString((String) value);
            case BOOLEAN -> g.writeBoolean((Boolean) value);
        }
    }

    /** Reads the value at the parser's current token. */
    public static Object read(JsonParser p, ColumnType type) throws IOException {
        JsonToken t = p.currentToken();
        return switch (type) {
            case LONG -> {
                require(t == JsonToken.VALUE_NUMBER_INT, p, type);
                yield p.getLongValue();
            }
            case DOUBLE -> {
                if (t == JsonToken.VALUE_STRING) {
                    yield Double.parseDouble(p.getText());
                }
                require(t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT, p, type);
                yield Values.canonical(p.getDoubleValue());
            }
            case DECIMAL -> {
                require(t == JsonToken.VALUE_STRING, p, type);
                yield Values.canonical(new BigDecimal(p.getText()));
            }
            case STRING -> {
                require(t == JsonToken.VALUE_STRING, p, type);
                yield p.getText();
            }
            case BOOLEAN -> {
                require(t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE, p, type);
                yield t == JsonToken.VALUE_TRUE;
            }
        };
    }

    private static void require(boolean ok, JsonParser p, ColumnType type) throws IOException {
        if (!ok) {
            throw new IOException("a " + type.jsonName() + " value was expected, not " + p.currentToken());
        }
    }
}
