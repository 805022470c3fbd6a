package io.stork.skipping.spi;

import io.stork.skipping.index.BloomIndexType;
import io.stork.skipping.index.ValueListIndexType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/** The index types known to this class loader: the built-in ones and those found by the service loader. */
public final class IndexTypes {

    private final Map<String, IndexType> byName;

    private IndexTypes(Map<String, IndexType> byName) {
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** Built-ins ({@code values}, {@code bloom}, {@code geo}) and the plug-ins visible from {@code loader}. */
    public static IndexTypes load(ClassLoader loader) {
        Map<String, IndexType> types = new LinkedHashMap<>();
        for (IndexType type : new IndexType[] {new ValueListIndexType(), new BloomIndexType(),
                new io.stork.skipping.index.GeoBoxesIndexType()}) {
            types.put(type.name(), type);
        }
        for (IndexType type : ServiceLoader.load(IndexType.class, loader)) {
            types.putIfAbsent(type.name(), type);
        }
        return new IndexTypes(types);
    }

    public static IndexTypes of(IndexType... types) {
        Map<String, IndexType> map = new LinkedHashMap<>();
        for (IndexType type : types) {
            map.put(type.name(), type);
        }
        return new IndexTypes(map);
    }

    public Optional<IndexType> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public java.util.Set<String> names() {
        return byName.keySet();
    }
}
