package io.stork.skipping;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.stork.manifest.segment.ByteCursor;
import io.stork.manifest.segment.StatisticsBlockCodec;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
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

    static final JsonFactory JSON = new JsonFactory();
    static final int FORMAT = 1;
    static final byte NONE = 0;
    static final byte COLUMNAR = 1;
    static final byte RAW = 2;
    static final int BOUNDS = 1;
    static final int PREFIX = 2;
    static final int NANS = 4;
    static final int INDEXES = 8;

    /** Public for the service loader. */
    public StatisticsBlock() {
    }

    @Override
    public byte[] encode(List<String> statsJson) {
        return StatisticsBlockWriter.encode(statsJson);
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

}
