package io.stork.skipping;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stork.manifest.segment.ByteCursor;
import io.stork.manifest.segment.StatisticsBlockCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statistics of a segment's parts as one columnar block (docs/manifest-format.md#segments): per part
 * its row count, then column by column each part's type, counts and bounds in binary (integers as
 * variable-length deltas), index objects as their JSON text. A reader fills a {@link StatisticsTable}
 * from it without a JSON parser except for indexes. Statistics this version cannot represent exactly (a
 * newer version, an unknown field) are kept as the part's JSON, so nothing is lost.
 */
public final class StatisticsBlock implements StatisticsBlockCodec {

    private static final JsonFactory JSON = new JsonFactory();
    private static final int FORMAT = 1;
    private static final byte NONE = 0;
    private static final byte COLUMNAR = 1;
    private static final byte RAW = 2;
    private static final int BOUNDS = 1;
    private static final int PREFIX = 2;
    private static final int NANS = 4;
    private static final int INDEXES = 8;

    /** Public for the service loader. */
    public StatisticsBlock() {
    }

    /** One column of one part, as parsed from its JSON. */
    private record Entry(ColumnType type, long nulls, long nans, Object min, Object max, boolean prefix,
                         String indexes) {
    }

    @Override
    public byte[] encode(List<String> statsJson) {
        try {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(head);
            out.writeInt(FORMAT);
            writeVar(out, statsJson.size());
            Map<String, DataOutputStream> columns = new LinkedHashMap<>();
            Map<String, ByteArrayOutputStream> buffers = new LinkedHashMap<>();
            int columnar = 0;
            for (String json : statsJson) {
                if (json == null) {
                    out.writeByte(NONE);
                    continue;
                }
                long[] rows = {-1};
                Map<String, Entry> entries = parse(json, rows);
                if (entries == null) {
                    out.writeByte(RAW);
                    writeString(out, json);
                    continue;
                }
                out.writeByte(COLUMNAR);
                writeVar(out, rows[0]);
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
            writeVar(out, columns.size());
            for (Map.Entry<String, ByteArrayOutputStream> c : buffers.entrySet()) {
                writeString(out, c.getKey());
                writeVar(out, c.getValue().size());
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
        try (JsonParser p = JSON.createParser(json)) {
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
                    try (JsonGenerator g = JSON.createGenerator(text)) {
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
        int flags = (e.min() != null ? BOUNDS : 0) | (e.prefix() ? PREFIX : 0) | (e.nans() > 0 ? NANS : 0)
                | (e.indexes() != null ? INDEXES : 0);
        out.writeByte(flags);
        writeVar(out, e.nulls());
        if (e.nans() > 0) {
            writeVar(out, e.nans());
        }
        if (e.min() != null) {
            switch (e.type()) {
                case LONG -> {
                    long min = (Long) e.min();
                    writeVar(out, min);
                    writeVar(out, (Long) e.max() - min); // wraps, and unwraps the same way
                }
                case DOUBLE -> {
                    out.writeDouble((Double) e.min());
                    out.writeDouble((Double) e.max());
                }
                case DECIMAL -> {
                    writeString(out, ((BigDecimal) e.min()).toPlainString());
                    writeString(out, ((BigDecimal) e.max()).toPlainString());
                }
                case STRING -> {
                    writeString(out, (String) e.min());
                    writeString(out, (String) e.max());
                }
                case BOOLEAN -> {
                    out.writeBoolean((Boolean) e.min());
                    out.writeBoolean((Boolean) e.max());
                }
            }
        }
        if (e.indexes() != null) {
            writeString(out, e.indexes());
        }
    }

    /** What reading a block hands out: each part's row count, then column by column each part's values. */
    interface Visitor {
        void part(int part, long rows);

        void raw(int part, String json);

        /** The sink of one column's values (called once per column, before its values). */
        ColumnSink column(String name);
    }

    interface ColumnSink {
        /** {@code bounds}: whether there are bounds; a LONG column's are {@code longMin}/{@code longMax}. */
        void value(int part, ColumnType type, long nulls, long nans, boolean bounds, Object min, Object max,
                   boolean prefix, String indexes, long longMin, long longMax);
    }

    /** The number of parts a block describes. */
    static int parts(byte[] block) throws IOException {
        ByteCursor in = new ByteCursor(block);
        in.readInt();
        return (int) in.readVarLong();
    }

    static void read(byte[] block, Visitor visitor) throws IOException {
        ByteCursor in = new ByteCursor(block);
        if (in.readInt() != FORMAT) {
            throw new IOException("statistics block of an unknown format");
        }
        long count = in.readVarLong();
        if (count < 0 || count > block.length) {
            throw new IOException("statistics block: bad part count");
        }
        int n = (int) count;
        int[] columnarParts = new int[n];
        int columnar = 0;
        for (int part = 0; part < n; part++) {
            byte mode = in.readByte();
            if (mode == COLUMNAR) {
                visitor.part(part, in.readVarLong());
                columnarParts[columnar++] = part;
            } else if (mode == RAW) {
                visitor.raw(part, in.readString());
            } else if (mode != NONE) {
                throw new IOException("statistics block: unknown mode " + mode);
            }
        }
        long columns = in.readVarLong();
        ColumnType[] types = ColumnType.values();
        for (long c = 0; c < columns; c++) {
            ColumnSink sink = visitor.column(in.readString());
            long length = in.readVarLong();
            int start = in.position();
            for (int i = 0; i < columnar; i++) {
                int t = in.readByte() & 0xFF;
                if (t == 0) {
                    continue;
                }
                if (t > types.length) {
                    throw new IOException("statistics block: unknown type " + t);
                }
                ColumnType type = types[t - 1];
                int flags = in.readByte() & 0xFF;
                long nulls = in.readVarLong();
                long nans = (flags & NANS) != 0 ? in.readVarLong() : 0;
                Object min = null;
                Object max = null;
                long longMin = 0;
                long longMax = 0;
                if ((flags & BOUNDS) != 0) {
                    switch (type) {
                        case LONG -> {
                            longMin = in.readVarLong();
                            longMax = longMin + in.readVarLong();
                        }
                        case DOUBLE -> {
                            min = in.readDouble();
                            max = in.readDouble();
                        }
                        case DECIMAL -> {
                            min = Values.canonical(new BigDecimal(in.readString()));
                            max = Values.canonical(new BigDecimal(in.readString()));
                        }
                        case STRING -> {
                            min = in.readString();
                            max = in.readString();
                        }
                        case BOOLEAN -> {
                            min = in.readByte() != 0;
                            max = in.readByte() != 0;
                        }
                    }
                }
                String indexes = (flags & INDEXES) != 0 ? in.readString() : null;
                sink.value(columnarParts[i], type, nulls, nans, (flags & BOUNDS) != 0, min, max,
                        (flags & PREFIX) != 0, indexes, longMin, longMax);
            }
            if (in.position() - start != length) {
                throw new IOException("statistics block: a column's length does not match its values");
            }
        }
    }

    @Override
    public List<String> decode(byte[] block) {
        try {
            int n = parts(block);
            String[] raw = new String[n];
            long[] rows = new long[n];
            java.util.Arrays.fill(rows, -1);
            List<Map<String, String>> columns = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                columns.add(null);
            }
            read(block, new Visitor() {
                @Override
                public void part(int part, long r) {
                    rows[part] = r;
                    columns.set(part, new LinkedHashMap<>());
                }

                @Override
                public void raw(int part, String json) {
                    raw[part] = json;
                }

                @Override
                public ColumnSink column(String name) {
                    return (part, type, nulls, nans, bounds, min, max, prefix, indexes, longMin, longMax) -> {
                        if (type == ColumnType.LONG && bounds) {
                            min = longMin;
                            max = longMax;
                        }
                        columns.get(part).put(name, columnJson(type, nulls, nans, min, max, prefix, indexes));
                    };
                }
            });
            List<String> result = new ArrayList<>(n);
            for (int part = 0; part < n; part++) {
                if (raw[part] != null || rows[part] < 0) {
                    result.add(raw[part]);
                    continue;
                }
                StringBuilder json = new StringBuilder("{\"v\":").append(StatisticsCodec.VERSION).append(",\"rows\":")
                        .append(rows[part]).append(",\"columns\":{");
                boolean first = true;
                for (Map.Entry<String, String> c : columns.get(part).entrySet()) {
                    json.append(first ? "" : ",").append(quote(c.getKey())).append(':').append(c.getValue());
                    first = false;
                }
                result.add(json.append("}}").toString());
            }
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String quote(String s) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(text)) {
            g.writeString(s);
        }
        return text.toString();
    }

    /** A column's statistics as {@link StatisticsCodec} writes them. */
    private static String columnJson(ColumnType type, long nulls, long nans, Object min, Object max, boolean prefix,
                                     String indexes) {
        try {
            StringWriter text = new StringWriter();
            try (JsonGenerator g = JSON.createGenerator(text)) {
                g.writeStartObject();
                g.writeStringField("type", type.jsonName());
                g.writeNumberField("nulls", nulls);
                if (nans > 0) {
                    g.writeNumberField("nan", nans);
                }
                if (min != null) {
                    g.writeFieldName("min");
                    JsonTree.write(g, ValueJson.toJson(type, min));
                    g.writeFieldName("max");
                    JsonTree.write(g, ValueJson.toJson(type, max));
                    if (prefix) {
                        g.writeBooleanField("maxPrefix", true);
                    }
                }
                if (indexes != null) {
                    g.writeFieldName("indexes");
                    g.writeRawValue(indexes);
                }
                g.writeEndObject();
            }
            return text.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void writeVar(DataOutputStream out, long v) throws IOException {
        long zz = (v << 1) ^ (v >> 63);
        while ((zz & ~0x7FL) != 0) {
            out.writeByte((int) ((zz & 0x7F) | 0x80));
            zz >>>= 7;
        }
        out.writeByte((int) zz);
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeVar(out, b.length);
        out.write(b);
    }
}
