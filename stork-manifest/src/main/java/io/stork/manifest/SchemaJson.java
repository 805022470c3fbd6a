package io.stork.manifest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** The manifest's {@code schema} field (docs/manifest-format.md): {@link DatasetSchema} as JSON. */
final class SchemaJson {

    private SchemaJson() {
    }

    static void write(JsonGenerator g, DatasetSchema schema) throws IOException {
        g.writeObjectFieldStart("schema");
        g.writeStringField("format", schema.format());
        g.writeNumberField("since", schema.since());
        g.writeArrayFieldStart("partitionColumns");
        for (String column : schema.partitionColumns()) {
            g.writeString(column);
        }
        g.writeEndArray();
        // Spark's schema JSON as an object, not a string of JSON: readable with jq, and written as given.
        g.writeFieldName("struct");
        g.writeRawValue(schema.json());
        g.writeEndObject();
    }

    static DatasetSchema read(JsonParser p, String source, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            throw new CorruptManifestException(source, "\"schema\" is not an object");
        }
        String format = null;
        long since = 0;
        List<String> partitionColumns = new ArrayList<>();
        String struct = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "format" -> format = p.getValueAsString();
                case "since" -> since = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : 0;
                case "partitionColumns" -> {
                    if (v != JsonToken.START_ARRAY) {
                        throw new CorruptManifestException(source, "\"schema\".\"partitionColumns\" is not an array");
                    }
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        partitionColumns.add(p.getText());
                    }
                    if (p.currentToken() != JsonToken.END_ARRAY) {
                        throw new CorruptManifestException(source, "a partition column in \"schema\" is not a string");
                    }
                }
                case "struct" -> {
                    if (v != JsonToken.START_OBJECT) {
                        throw new CorruptManifestException(source, "\"schema\".\"struct\" is not an object");
                    }
                    StringWriter text = new StringWriter();
                    try (JsonGenerator g = ManifestCodec.JSON.createGenerator(text)) {
                        g.copyCurrentStructure(p);
                    }
                    struct = text.toString();
                }
                default -> p.skipChildren();
            }
        }
        if (format == null || struct == null || since < 1) {
            throw new CorruptManifestException(source, "\"schema\" lacks \"format\", \"struct\" or a positive \"since\"");
        }
        return new DatasetSchema(struct, partitionColumns, format, since);
    }
}
