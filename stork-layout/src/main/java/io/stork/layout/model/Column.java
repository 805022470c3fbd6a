package io.stork.layout.model;

import java.util.Objects;

/** A key column of a layout: its name in the dataset's schema and the type its values are compared as. */
public record Column(String name, ColumnType type) {

    public Column {
        Objects.requireNonNull(type, "column type");
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a layout column needs a name");
        }
    }

    public static Column of(String name, ColumnType type) {
        return new Column(name, type);
    }
}
