package io.stork.manifest.segment;

import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceLoader;

/** The {@link StatisticsBlockCodec} on the class path, if any (data skipping's). */
public final class StatisticsBlocks {

    private static final Optional<StatisticsBlockCodec> CODEC = load();

    private StatisticsBlocks() {
    }

    public static Optional<StatisticsBlockCodec> codec() {
        return CODEC;
    }

    private static Optional<StatisticsBlockCodec> load() {
        Iterator<StatisticsBlockCodec> it = ServiceLoader.load(StatisticsBlockCodec.class,
                StatisticsBlocks.class.getClassLoader()).iterator();
        return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
    }
}
