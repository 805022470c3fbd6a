package io.stork.kafka;

import io.stork.layout.model.Column;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Key columns from the value object itself, before serialization: a {@code Map} keyed by column name (a
 * key present with a null value is a null key value; an absent key fails), or an {@code Object[]} or
 * {@code List} holding exactly the key values in the model's column order. Values are converted as
 * {@link KeyValues#of} says (text is parsed, numbers widened when nothing is lost).
 */
final class ObjectKeyReader implements KeyReader {

    private final List<Column> columns;

    ObjectKeyReader(List<Column> columns) {
        this.columns = List.copyOf(columns);
    }

    @Override
    public Object[] key(Object value, byte[] valueBytes) {
        Object[] key = new Object[columns.size()];
        if (value instanceof Map<?, ?> map) {
            for (int k = 0; k < key.length; k++) {
                String name = columns.get(k).name();
                if (!map.containsKey(name)) {
                    throw new IllegalArgumentException(KeyValues.describe(columns.get(k)) + " is missing from the Map value");
                }
                key[k] = KeyValues.of(columns.get(k), map.get(name));
            }
            return key;
        }
        List<?> values = value instanceof Object[] a ? Arrays.asList(a) : value instanceof List<?> l ? l : null;
        if (values == null) {
            throw new IllegalArgumentException("the value is a " + value.getClass().getName() + ", not a Map, Object[] or "
                    + "List (stork.layout.value.format=object)");
        }
        if (values.size() != key.length) {
            throw new IllegalArgumentException("the value holds " + values.size() + " values; the layout's key "
                    + columns.stream().map(Column::name).toList() + " has " + key.length);
        }
        for (int k = 0; k < key.length; k++) {
            key[k] = KeyValues.of(columns.get(k), values.get(k));
        }
        return key;
    }

    @Override
    public String describe() {
        return "Map, Object[] or List values";
    }
}
