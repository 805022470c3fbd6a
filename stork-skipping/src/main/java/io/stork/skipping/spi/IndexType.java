package io.stork.skipping.spi;

import io.stork.skipping.ColumnType;
import java.util.Map;

/**
 * A kind of index beyond min/max and null counts, which every indexed column gets. Plug-ins are found
 * through {@link java.util.ServiceLoader} ({@code META-INF/services/io.stork.skipping.spi.IndexType}) and
 * named in the write option {@code stork.skipping.indexes} ({@code column:name}, e.g. {@code city:values}).
 * An index is written into the manifest under its name and read back by the same type; a manifest naming
 * an index no loaded type knows is read without it (the part is then read, never wrongly skipped).
 * The API names no JSON library: indexes are JSON values in plain Java ({@link ColumnIndex#toJson()}).
 */
public interface IndexType {

    /** The name in options and in the manifest: lower case, no spaces. */
    String name();

    boolean supports(ColumnType type);

    /** A collector for one column of one part; {@code options} are the write's skipping options. */
    IndexCollector newCollector(ColumnType type, Map<String, String> options);

    /**
     * Reads what {@link ColumnIndex#toJson()} gave (JSON integers arrive as Long, fractions as Double);
     * throws IllegalArgumentException for a value it cannot read (the part is then read, not skipped).
     * Called from several threads at once (a generation's parts are parsed in parallel): keep it stateless.
     */
    ColumnIndex fromJson(Object json, ColumnType type);
}
