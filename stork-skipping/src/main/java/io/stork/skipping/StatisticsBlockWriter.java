package io.stork.skipping;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stork.manifest.segment.Varints;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link StatisticsBlock}: each part's statistics JSON parsed into its columns, then the columns
 * in binary; a part whose statistics only their JSON can keep exactly is kept as that JSON.
 */
final class StatisticsBlockWriter {

    private StatisticsBlockWriter() {
    }

    /** One column of one part, as parsed from its JSON. */
    private record Entry(ColumnType type, long nulls, long nans, Object min, Object max, boolean prefix,
                         String indexes) {
    }

    static byte[] encode(List<String> statsJson) {
        try {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(head);
            out.writeInt(StatisticsBlock.FORMAT);
            Varints.writeVarLong(out, statsJson.size());
            Map<String, DataOutputStream> columns = new LinkedHashMap<>();
            Map<String, ByteArrayOutputStream> buffers = new LinkedHashMap<>();
            int columnar = 0;
            for (String json : statsJson) {
                if (json == null) {
                    out.writeByte(StatisticsBlock.NONE);
                    continue;
                }
                long[] rows = {-1};
                Map<String, Entry> entries = parse(json, rows);
                if (entries == null) {
                    out.writeByte(StatisticsBlock.RAW);
                    Varints.writeString(out, json);
                    continue;
                }
                out.writeByte(StatisticsBlock.COLUMNAR);
                Varints.writeVarLong(out, rows[0]);
                for (String name : entries.keySet()) {
                    if (!columns.containsKey(name)) {
                        ByteArrayOutputStream b = new ByteArrayOutputStream();
                        b.write(new byte[columnar], 0, columnar); // absent in the columnar parts before
                        buffers.put(name, b);
                        columns.put(name, new DataOutputStream(b));
                    }
                }
                for (Map.Entry<String, DataOutputStream> c : columns.entrySet()) {
                    writeEntry(c.getValue(), entries.get(c.getKey()));
                }
                columnar++;
            }
            Varints.writeVarLong(out, columns.size());
            for (Map.Entry<String, ByteArrayOutputStream> c : buffers.entrySet()) {
                Varints.writeString(out, c.getKey());
                Varints.writeVarLong(out, c.getValue().size());
                c.getValue().writeTo(out);
            }
            out.flush();
            return head.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The columns of one part's statistics, or null when only its JSON can keep them exactly. */
    private static Map<String, Entry> parse(String json, long[] rowCount) {
        try (JsonParser p = StatisticsBlock.JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Map<String, Entry> columns = new LinkedHashMap<>();
            int version = -1;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "v" -> version = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : -1;
                    case "rows" -> rowCount[0] = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : -1;
                    case "columns" -> {
                        if (value != JsonToken.START_OBJECT) {
                            return null;
                        }
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String name = p.currentName();
                            p.nextToken();
                            Entry e = column(p);
                            if (e == null || columns.put(name, e) != null) {
                                return null;
                            }
                        }
                    }
                    default -> {
                        return null;
                    }
                }
            }
            return version == StatisticsCodec.VERSION && rowCount[0] >= 0 ? columns : null;
        } catch (IOException | RuntimeException e) {
            return null; // kept as JSON: readers decide what it means
        }
    }

    private static Entry column(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            return null;
        }
        ColumnType type = null;
        long nulls = 0;
        long nans = 0;
        Object min = null;
        Object max = null;
        boolean prefix = false;
        String indexes = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "type" -> type = ColumnType.fromJsonName(p.getText());
                case "nulls" -> nulls = p.getLongValue();
                case "nan" -> nans = p.getLongValue();
                case "min", "max" -> {
                    if (type == null || type == ColumnType.LONG && (value != JsonToken.VALUE_NUMBER_INT
                            || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER)) {
                        return null;
                    }
                    Object v = ValueJson.fromJson(type, JsonTree.read(p));
                    if (field.equals("min")) {
                        min = v;
                    } else {
                        max = v;
                    }
                }
                case "maxPrefix" -> prefix = p.getBooleanValue();
                case "indexes" -> {
                    if (value != JsonToken.START_OBJECT) {
                        return null;
                    }
                    StringWriter text = new StringWriter();
                    try (JsonGenerator g = StatisticsBlock.JSON.createGenerator(text)) {
                        g.copyCurrentStructure(p);
                    }
                    indexes = text.toString();
                }
                default -> {
                    return null;
                }
            }
        }
        if (type == null || (min == null) != (max == null) || nulls < 0 || nans < 0) {
            return null;
        }
        return new Entry(type, nulls, nans, min, max, prefix, indexes);
    }

    private static void writeEntry(DataOutputStream out, Entry e) throws IOException {
        if (e == null) {
            out.writeByte(0);
            return;
        }
        out.writeByte(e.type().ordinal() + 1);
        int flags = (e.min() != null ? StatisticsBlock.BOUNDS : 0) | (e.prefix() ? StatisticsBlock.PREFIX : 0) | (e.nans() > 0 ? StatisticsBlock.NANS : 0)
                | (e.indexes() != null ? StatisticsBlock.INDEXES : 0);
        out.writeByte(flags);
        Varints.writeVarLong(out, e.nulls());
        if (e.nans() > 0) {
            Varints.writeVarLong(out, e.nans());
        }
        if (e.min() != null) {
            switch (e.type()) {
                case LONG -> {
                    long min = (Long) e.min();
                    Varints.writeVarLong(out, min);
                    Varints.writeVarLong(out, (Long) e.max() - min); // wraps, and unwraps the same way
                }
                case DOUBLE -> {
                    out.writeDouble((Double) e.min());
                    out.writeDouble((Double) e.max());
                }
                case DECIMAL -> {
                    Varints.writeString(out, ((BigDecimal) e.min()).toPlainString());
                    Varints.writeString(out, ((BigDecimal) e.max()).toPlainString());
                }
                case STRING -> {
                    Varints.writeString(out, (String) e.min());
                    Varints.writeString(out, (String) e.max());
                }
                case BOOLEAN -> {
                    out.writeBoolean((Boolean) e.min());
                    out.writeBoolean((Boolean) e.max());
                }
            }
        }
        if (e.indexes() != null) {
            Varints.writeString(out, e.indexes());
        }
    }
}
