package io.stork.manifest;

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
import java.util.Objects;

/**
 * What schema a new generation records (docs/manifest-format.md, "Schema evolution"). The rule is Parquet's
 * {@code mergeSchema} made once at commit instead of at every read: the schema of every part the generation
 * names, so columns are the union (the previous schema's in order, then the new ones), a column some parts
 * lack is nullable, and nested structs merge the same way. Where no schema reads every part (a type
 * changed, another format, other partition columns, parts whose schema nobody recorded), the generation
 * records none and readers infer it as they would without Stork. Done on the schema JSON, so that the
 * manifest module needs no Spark.
 */
public final class SchemaEvolution {

    private SchemaEvolution() {
    }

    /**
     * The schema generation {@code generation} records.
     *
     * @param previous   the previous generation's manifest, if any
     * @param written    the schema the committing job wrote its parts with, or null when it did not say
     *                   (an RDD write, the dataset tool)
     * @param keptAny    whether the new generation keeps any part of the previous one
     * @param wroteAny   whether the job adds parts
     */
    public static DatasetSchema next(Manifest previous, DatasetSchema written, Manifest.Operation operation,
                                     boolean keptAny, boolean wroteAny, long generation) {
        DatasetSchema before = previous == null ? null : previous.datasetSchema();
        if (written != null && !isStruct(written.json())) {
            written = null; // never write into the manifest what a reader could not parse
        }
        if (operation == Manifest.Operation.RESTORE) {
            // The restored generation's schema is the recorded one only if that never changed over the
            // generations the manifest can list; otherwise readers infer it, as for an old manifest.
            return before != null && before.since() <= previous.restorableFrom() ? before : null;
        }
        if (written == null) {
            // Parts of unknown schema make any recorded schema a guess; no new parts change nothing.
            return wroteAny || !keptAny ? null : before;
        }
        if (!keptAny) {
            return written.since(generation);
        }
        if (before == null || !before.format().equals(written.format())
                || !before.partitionColumns().equals(written.partitionColumns())) {
            return null;
        }
        Object merged;
        try {
            merged = merge(parse(before.json()), parse(written.json()));
        } catch (IllegalArgumentException conflict) {
            return null; // no schema reads every part: readers infer, as without Stork
        }
        if (merged.equals(parse(before.json()))) {
            return before;
        }
        return new DatasetSchema(write(merged), before.partitionColumns(), before.format(), generation);
    }

    private static boolean isStruct(String json) {
        try {
            return parse(json) instanceof Map<?, ?> map && "struct".equals(map.get("type"))
                    && map.get("fields") instanceof List<?>;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Merges two Spark data types in their JSON form; throws IllegalArgumentException on a conflict. */
    @SuppressWarnings("unchecked")
    static Object merge(Object left, Object right) {
        if (Objects.equals(left, right)) {
            return left;
        }
        if (left instanceof Map<?, ?> l && right instanceof Map<?, ?> r && Objects.equals(l.get("type"), r.get("type"))) {
            Map<String, Object> a = (Map<String, Object>) l;
            Map<String, Object> b = (Map<String, Object>) r;
            Map<String, Object> out = new LinkedHashMap<>(a);
            switch (String.valueOf(a.get("type"))) {
                case "struct" -> out.put("fields", mergeFields((List<Object>) a.get("fields"), (List<Object>) b.get("fields")));
                case "array" -> {
                    out.put("elementType", merge(a.get("elementType"), b.get("elementType")));
                    out.put("containsNull", or(a.get("containsNull"), b.get("containsNull")));
                }
                case "map" -> {
                    out.put("keyType", merge(a.get("keyType"), b.get("keyType")));
                    out.put("valueType", merge(a.get("valueType"), b.get("valueType")));
                    out.put("valueContainsNull", or(a.get("valueContainsNull"), b.get("valueContainsNull")));
                }
                default -> throw new IllegalArgumentException("types differ: " + write(left) + " and " + write(right));
            }
            return out;
        }
        throw new IllegalArgumentException("types differ: " + write(left) + " and " + write(right));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> mergeFields(List<Object> left, List<Object> right) {
        if (left == null || right == null) {
            throw new IllegalArgumentException("a struct without fields");
        }
        Map<String, Map<String, Object>> rightByName = new LinkedHashMap<>();
        for (Object f : right) {
            Map<String, Object> field = (Map<String, Object>) f;
            rightByName.put(String.valueOf(field.get("name")), field);
        }
        List<Object> out = new ArrayList<>();
        for (Object f : left) {
            Map<String, Object> field = new LinkedHashMap<>((Map<String, Object>) f);
            Map<String, Object> other = rightByName.remove(String.valueOf(field.get("name")));
            if (other == null) {
                field.put("nullable", true); // the new parts lack it
            } else {
                field.put("type", merge(field.get("type"), other.get("type")));
                field.put("nullable", or(field.get("nullable"), other.get("nullable")));
            }
            out.add(field);
        }
        for (Map<String, Object> added : rightByName.values()) {
            Map<String, Object> field = new LinkedHashMap<>(added);
            field.put("nullable", true); // the earlier parts lack it
            out.add(field);
        }
        return out;
    }

    private static Boolean or(Object a, Object b) {
        return Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b);
    }

    /** JSON text as maps, lists, strings, numbers, booleans and nulls. */
    static Object parse(String json) {
        try (JsonParser p = ManifestCodec.JSON.createParser(json)) {
            p.nextToken();
            return value(p);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a schema: " + e.getMessage(), e);
        }
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            Map<String, Object> map = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                map.put(name, value(p));
            }
            return map;
        }
        if (t == JsonToken.START_ARRAY) {
            List<Object> list = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                list.add(value(p));
            }
            return list;
        }
        return switch (t) {
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IOException("unexpected " + t);
        };
    }

    static String write(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = ManifestCodec.JSON.createGenerator(out)) {
            write(g, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void write(JsonGenerator g, Object value) throws IOException {
        if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
                g.writeFieldName(e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object o : list) {
                write(g, o);
            }
            g.writeEndArray();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Number n) {
            g.writeNumber(n.toString());
        } else {
            g.writeNull();
        }
    }
}
