package io.stork.store.cache;

import io.stork.store.ByteRange;
import io.stork.store.ObjectInfo;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.ReadCondition;
import io.stork.store.memory.InMemoryObjectStore;
import java.nio.file.Path;
import java.util.Random;

/**
 * A process that fills a block cache without end, for {@link BlockCacheKillTest} to kill: objects of
 * known content (seeded by their number) read in random ranges through a cache on the given directory.
 */
public final class KilledWriterChild {

    static final int OBJECTS = 12;
    static final int BLOCK = 64 * 1024;

    static byte[] content(int i) {
        byte[] b = new byte[7 * BLOCK + 1000 + i];
        new Random(i).nextBytes(b);
        return b;
    }

    public static void main(String[] args) throws Exception {
        InMemoryObjectStore memory = new InMemoryObjectStore();
        memory.createBucket("b");
        String[] etags = new String[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            ObjectInfo info = memory.put(ObjectKey.of("b", "o" + i), PutBody.of(content(i)), PutOptions.defaults());
            etags[i] = info.etag();
        }
        CachingObjectStore store = new CachingObjectStore(memory, new BlockCacheSettings(Path.of(args[0]), BLOCK,
                Long.parseLong(args[1])));
        Random random = new Random(Long.parseLong(args[2]));
        boolean ready = false;
        while (true) {
            int i = random.nextInt(OBJECTS);
            int length = content(i).length;
            int start = random.nextInt(length);
            try (ObjectStream in = store.get(ObjectKey.of("b", "o" + i), ByteRange.of(start, 1 + random.nextInt(length - start)),
                    ReadCondition.ifMatch(etags[i]))) {
                in.readAllBytes();
            }
            if (!ready && store.cacheStatistics().snapshot().blocksStored() > 20) {
                System.out.println("READY");
                System.out.flush();
                ready = true;
            }
        }
    }
}
