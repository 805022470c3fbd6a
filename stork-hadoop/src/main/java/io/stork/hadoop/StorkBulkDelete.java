package io.stork.hadoop;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;

/** Hadoop's bulk delete over the store's bulk call: one request per page of up to {@link #PAGE_SIZE} paths. */
final class StorkBulkDelete implements BulkDelete {

    static final int PAGE_SIZE = 1_000;

    interface PageDeleter {
        List<Map.Entry<Path, String>> delete(Collection<Path> paths) throws IOException;
    }

    private final Path base;
    private final PageDeleter deleter;
    private final IOStatistics statistics;

    StorkBulkDelete(Path base, PageDeleter deleter, IOStatistics statistics) {
        this.base = base;
        this.deleter = deleter;
        this.statistics = statistics;
    }

    @Override
    public int pageSize() {
        return PAGE_SIZE;
    }

    @Override
    public Path basePath() {
        return base;
    }

    @Override
    public List<Map.Entry<Path, String>> bulkDelete(Collection<Path> paths) throws IOException {
        if (paths.size() > PAGE_SIZE) {
            throw new IllegalArgumentException("a bulk delete takes at most " + PAGE_SIZE + " paths, not " + paths.size());
        }
        String prefix = base.toString().endsWith("/") ? base.toString() : base + "/";
        for (Path path : paths) {
            if (!path.toString().startsWith(prefix) && !path.equals(base)) {
                throw new IllegalArgumentException(path + " is not under the bulk delete's base path " + base);
            }
        }
        return paths.isEmpty() ? List.of() : deleter.delete(paths);
    }

    @Override
    public IOStatistics getIOStatistics() {
        return statistics;
    }

    @Override
    public void close() {
    }
}
