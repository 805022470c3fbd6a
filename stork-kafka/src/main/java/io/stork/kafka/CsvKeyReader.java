package io.stork.kafka;

import io.stork.layout.model.Column;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Key columns from a delimited text line (the serialized value, UTF-8), RFC 4180 style: a field may be
 * quoted with {@code "}, a quote inside doubled; a trailing line break is ignored; an empty unquoted field
 * is null (as Spark's CSV reader reads it). Only the key fields are decoded, and the scan stops after the
 * last of them: a producer may send wide lines at a high rate, and the partitioner runs on its send path.
 */
final class CsvKeyReader implements KeyReader {

    private static final byte QUOTE = '"';

    private final List<Column> columns;
    private final List<String> csvColumns;
    private final byte delimiter;
    /** For each field of the line, the model column it holds (-1: not a key field); up to the last key field. */
    private final int[] keyOfField;

    CsvKeyReader(List<Column> columns, List<String> csvColumns, char delimiter) {
        if (delimiter == '"' || delimiter == '\r' || delimiter == '\n' || delimiter > 127) {
            throw new IllegalArgumentException("the CSV delimiter must be one ASCII character other than a quote or a "
                    + "line break, not '" + delimiter + "'");
        }
        this.columns = List.copyOf(columns);
        this.csvColumns = List.copyOf(csvColumns);
        this.delimiter = (byte) delimiter;
        int last = -1;
        int[] fieldOfKey = new int[columns.size()];
        for (int k = 0; k < columns.size(); k++) {
            fieldOfKey[k] = csvColumns.indexOf(columns.get(k).name());
            if (fieldOfKey[k] < 0) {
                throw new IllegalArgumentException("the CSV columns " + csvColumns + " lack the layout's key column '"
                        + columns.get(k).name() + "'");
            }
            last = Math.max(last, fieldOfKey[k]);
        }
        this.keyOfField = new int[last + 1];
        Arrays.fill(keyOfField, -1);
        for (int k = 0; k < fieldOfKey.length; k++) {
            keyOfField[fieldOfKey[k]] = k;
        }
    }

    @Override
    public Object[] key(Object value, byte[] line) {
        Object[] key = new Object[columns.size()];
        int end = line.length;
        while (end > 0 && (line[end - 1] == '\n' || line[end - 1] == '\r')) {
            end--;
        }
        int pos = 0;
        for (int field = 0; field < keyOfField.length; field++) {
            if (pos > end) {
                int k = firstKeyAtOrAfter(field);
                throw new IllegalArgumentException(KeyValues.describe(columns.get(k)) + " is missing: it is CSV field "
                        + (indexOfKey(k) + 1) + " of " + csvColumns.size() + " and the line has " + field);
            }
            int k = keyOfField[field];
            if (pos < end && line[pos] == QUOTE) {
                StringBuilder text = new StringBuilder();
                pos = quoted(line, pos + 1, end, text, field);
                if (k >= 0) {
                    key[k] = KeyValues.parse(columns.get(k), text.toString());
                }
            } else {
                int stop = pos;
                while (stop < end && line[stop] != delimiter) {
                    stop++;
                }
                if (k >= 0) {
                    key[k] = stop == pos ? null
                            : KeyValues.parse(columns.get(k), new String(line, pos, stop - pos, StandardCharsets.UTF_8));
                }
                pos = stop;
            }
            if (pos < end && line[pos] != delimiter) {
                throw new IllegalArgumentException("CSV field " + (field + 1) + " has text after its closing quote");
            }
            pos++; // past the delimiter; past the end after the last field
        }
        return key;
    }

    @Override
    public String describe() {
        String shown = delimiter == '\t' ? "\\t" : String.valueOf((char) delimiter);
        return "CSV lines of " + csvColumns + " delimited by '" + shown + "'";
    }

    /** Reads a quoted field's text from just after its opening quote; returns the position after the closing one. */
    private static int quoted(byte[] line, int from, int end, StringBuilder text, int field) {
        int start = from;
        int pos = from;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (true) {
            if (pos >= end) {
                throw new IllegalArgumentException("CSV field " + (field + 1) + " has no closing quote");
            }
            if (line[pos] == QUOTE) {
                bytes.write(line, start, pos - start);
                if (pos + 1 < end && line[pos + 1] == QUOTE) {
                    bytes.write(QUOTE);
                    pos += 2;
                    start = pos;
                    continue;
                }
                text.append(bytes.toString(StandardCharsets.UTF_8));
                return pos + 1;
            }
            pos++;
        }
    }

    private int firstKeyAtOrAfter(int field) {
        for (int f = field; f < keyOfField.length; f++) {
            if (keyOfField[f] >= 0) {
                return keyOfField[f];
            }
        }
        throw new AssertionError("the scan ends at the last key field");
    }

    private int indexOfKey(int k) {
        return csvColumns.indexOf(columns.get(k).name());
    }
}
