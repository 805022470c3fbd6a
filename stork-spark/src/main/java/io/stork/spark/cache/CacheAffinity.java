package io.stork.spark.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.spark.sql.execution.datasources.FileStatusWithMetadata;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Soft affinity of a dataset's byte ranges to executor hosts, so that Spark sends the task reading a range
 * to the host whose block cache holds it (docs/block-cache.md#locality). An object store has no locality:
 * each range of {@code blockSize} bytes of a file is given the host that rendezvous hashing of (path, range)
 * over the executors' hosts picks first (and the next ones, when more hosts per range are asked for). The
 * same range always asks for the same hosts; when a host leaves, only its ranges move; Spark's locality wait
 * sends a task elsewhere when its host is busy. With fewer than two hosts (local mode, one machine) nothing
 * is changed.
 */
public final class CacheAffinity {

    /**
     * Hosts named per range unless set otherwise: one, as measured on a three-host cluster
     * ({@code CacheLocalityClusterIT}, docs/block-cache.md#locality): with one, every scan after the first
     * was served from the caches; with two, a range was cached on both hosts over the first scans.
     */
    public static final int DEFAULT_HOSTS_PER_RANGE = 1;

    private final Supplier<List<String>> hosts;
    private final int hostsPerRange;

    /** @param hosts the executors' hosts now (never the driver's unless an executor runs there) */
    public CacheAffinity(Supplier<List<String>> hosts) {
        this(hosts, DEFAULT_HOSTS_PER_RANGE);
    }

    /**
     * @param hostsPerRange how many hosts each range names (at least 1): with one, a range is always read
     *                      on the same host (one cached copy, but a busy host delays its tasks by the
     *                      locality wait); with more, up to that many hosts cache it
     */
    public CacheAffinity(Supplier<List<String>> hosts, int hostsPerRange) {
        if (hostsPerRange < 1) {
            throw new IllegalArgumentException("hosts per range must be at least 1, not " + hostsPerRange);
        }
        this.hosts = hosts;
        this.hostsPerRange = hostsPerRange;
    }

    /** The partition directories with their files located on hosts by range, or as they are. */
    public List<PartitionDirectory> locate(List<PartitionDirectory> directories) {
        List<String> now = hosts.get();
        if (now.size() < 2) {
            return directories;
        }
        String[] candidates = now.toArray(String[]::new);
        List<PartitionDirectory> out = new ArrayList<>(directories.size());
        for (PartitionDirectory directory : directories) {
            List<FileStatusWithMetadata> files = new ArrayList<>();
            for (FileStatusWithMetadata file : CollectionConverters.asJava(directory.files())) {
                files.add(file.copy(located(file.fileStatus(), candidates, hostsPerRange), file.metadata()));
            }
            out.add(directory.copy(directory.values(), CollectionConverters.asScala(files).toList()));
        }
        return out;
    }

    /** {@code status} with one location per range of its block size, each naming {@code perRange} hosts. */
    static LocatedFileStatus located(FileStatus status, String[] hosts, int perRange) {
        long length = status.getLen();
        long range = Math.max(1, status.getBlockSize());
        List<BlockLocation> locations = new ArrayList<>();
        String path = status.getPath().toString();
        for (long offset = 0, index = 0; offset < length; offset += range, index++) {
            String[] chosen = choose(path, index, hosts, Math.min(perRange, hosts.length));
            String[] names = new String[chosen.length];
            for (int i = 0; i < chosen.length; i++) {
                names[i] = chosen[i] + ":9866";
            }
            locations.add(new BlockLocation(names, chosen, offset, Math.min(range, length - offset)));
        }
        return new LocatedFileStatus(status, locations.toArray(BlockLocation[]::new));
    }

    /** The {@code count} hosts with the highest scores for range {@code index} of {@code path} (rendezvous). */
    static String[] choose(String path, long index, String[] hosts, int count) {
        long key = mix(path.hashCode() * 0x9E3779B97F4A7C15L + index);
        String[] best = new String[count];
        long[] scores = new long[count];
        java.util.Arrays.fill(scores, Long.MIN_VALUE);
        for (String host : hosts) {
            long score = mix(key ^ (host.hashCode() * 0xC2B2AE3D27D4EB4FL));
            for (int i = 0; i < count; i++) {
                if (best[i] == null || score > scores[i]) {
                    System.arraycopy(best, i, best, i + 1, count - i - 1);
                    System.arraycopy(scores, i, scores, i + 1, count - i - 1);
                    best[i] = host;
                    scores[i] = score;
                    break;
                }
            }
        }
        return best;
    }

    /** MurmurHash3's 64-bit finalizer: every input bit moves every output bit. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
