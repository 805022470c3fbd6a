package io.stork.spark.skipping;

import io.stork.skipping.ObjectIndex;
import io.stork.skipping.StatisticsTable;
import io.stork.skipping.spi.IndexTypes;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The {@code index} command's statistics of one dataset, as a table, looked up by path, length and ETag. */
final class IndexedObjects {

    private final Path root;
    private final StatisticsTable table;
    private final Map<String, Integer> ordinals;
    private final List<ObjectIndex.Entry> entries;

    private IndexedObjects(Path root, StatisticsTable table, Map<String, Integer> ordinals, List<ObjectIndex.Entry> entries) {
        this.root = root;
        this.table = table;
        this.ordinals = ordinals;
        this.entries = entries;
    }

    /** The index of the dataset at {@code root} (one GET), or empty when it has none. */
    static Optional<IndexedObjects> load(Path root, Configuration conf, IndexTypes types) throws IOException {
        FileSystem fs = root.getFileSystem(conf);
        Path location = new Path(root, ObjectIndex.LOCATION);
        ObjectIndex index;
        try (InputStream in = fs.open(location)) {
            index = ObjectIndex.read(in, location.toString());
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
        List<String> json = new ArrayList<>();
        Map<String, Integer> ordinals = new HashMap<>();
        for (ObjectIndex.Entry e : index.objects()) {
            ordinals.put(e.path(), json.size());
            json.add(e.statsJson());
        }
        return Optional.of(new IndexedObjects(fs.makeQualified(root), StatisticsTable.of(json, types), ordinals,
                index.objects()));
    }

    Path root() {
        return root;
    }

    StatisticsTable table() {
        return table;
    }

    /** The row of a listed object whose length and ETag match what was indexed, or -1. */
    int ordinal(Path file, long length, String etag) {
        String relative = IndexCommand.relative(root, file);
        return relative == null ? -1 : ordinal(relative, length, etag);
    }

    /** As {@link #ordinal(Path, long, String)}, for an object named by its path relative to the root. */
    int ordinal(String relative, long length, String etag) {
        Integer i = ordinals.get(relative);
        if (i == null) {
            return -1;
        }
        ObjectIndex.Entry entry = entries.get(i);
        if (entry.length() != length || (entry.etag() != null && etag != null && !entry.etag().equals(etag))
                || (entry.etag() != null) != (etag != null)) {
            return -1; // changed since it was indexed
        }
        return table.hasStatistics(i) ? i : -1;
    }
}
