package io.stork.spark.read;

import io.stork.hadoop.DatasetParts;
import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.ManifestPart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap;
import org.apache.spark.sql.execution.datasources.FileIndex;
import org.apache.spark.sql.execution.datasources.FilePruningRunner;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.apache.spark.sql.execution.datasources.PartitionDirectory$;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.HadoopFSUtils$;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A file index over one generation of a Stork dataset that reads the manifest instead of listing: its
 * partitions come from the manifest's directories ({@link ManifestPartitions}) and a part's file status
 * is made only when a listing returns it, after partition pruning and, when data skipping judges the
 * listing ({@link PartFilter}), after its statistics ruled it in. Spark's own index lists and keeps every
 * file when a DataFrame is made, before any filter is known: at a million parts that was most of a
 * query's planning time and memory.
 *
 * <p>It answers as Spark's index would for the same directory: the same files (a listing's hidden names
 * and empty files left out), partitions, order and pruning. It serves the generation current when it was
 * made, as Spark's listing pins it; {@link #refresh()} moves it to the current one.
 */
public final class ManifestFileIndex implements FileIndex {

    /** Whether a listing returns a part, by its position in the generation's part list; asked once per part. */
    public interface PartFilter {
        boolean keep(int ordinal);
    }

    /** One generation and its partitions, swapped whole by {@link #refresh()}. */
    private record Snapshot(DatasetParts parts, ManifestPartitions partitions) {
    }

    private final SparkSession session;
    private final Path root;
    private final Configuration hadoopConf;
    private final CaseInsensitiveMap<String> options;
    private final Option<StructType> userSchema;
    private volatile Snapshot snapshot;
    private volatile long size = -1;

    private ManifestFileIndex(SparkSession session, Path root, Configuration hadoopConf,
                              CaseInsensitiveMap<String> options, Option<StructType> userSchema, DatasetParts parts) {
        this.session = session;
        this.root = root;
        this.hadoopConf = hadoopConf;
        this.options = options;
        this.userSchema = userSchema;
        this.snapshot = new Snapshot(parts, ManifestPartitions.of(session, parts, options, userSchema));
    }

    /** An index over {@code parts}, the generation of the dataset at {@code root} a query reads. */
    static ManifestFileIndex of(SparkSession session, Path root, Configuration hadoopConf,
                                CaseInsensitiveMap<String> options, Option<StructType> userSchema, DatasetParts parts) {
        return new ManifestFileIndex(session, root, hadoopConf, options, userSchema, parts);
    }

    /** The generation this index serves. */
    public DatasetParts parts() {
        return snapshot.parts();
    }

    @Override
    public Seq<PartitionDirectory> listFiles(Seq<Expression> partitionFilters, Seq<Expression> dataFilters) {
        return listFiles(partitionFilters, dataFilters, parts -> null);
    }

    /**
     * The listing, each part also asked of the filter {@code judge} makes for the generation listed (null:
     * every part), before its status is made.
     */
    public Seq<PartitionDirectory> listFiles(Seq<Expression> partitionFilters, Seq<Expression> dataFilters,
                                             Function<DatasetParts, PartFilter> judge) {
        Snapshot current = snapshot;
        PartFilter filter = judge.apply(current.parts());
        FilePruningRunner metadataFilters = new FilePruningRunner(dataFilters);
        List<PartitionDirectory> directories = new ArrayList<>();
        ManifestPartitions partitions = current.partitions();
        if (!partitions.partitioned()) {
            directories.add(metadataFilters.prune(directory(current.parts(), InternalRow.empty(),
                    partitions.directories(), filter)));
        } else {
            for (ManifestPartitions.Partition p : partitions.prune(CollectionConverters.asJava(partitionFilters))) {
                directories.add(metadataFilters.prune(directory(current.parts(), p.values(),
                        p.relative() == null ? List.of() : List.of(p.relative()), filter)));
            }
        }
        return CollectionConverters.asScala(directories).toList();
    }

    private static PartitionDirectory directory(DatasetParts parts, InternalRow values, List<String> relatives,
                                                PartFilter filter) {
        List<ManifestPart> all = parts.all();
        List<FileStatus> files = new ArrayList<>();
        for (String relative : relatives) {
            for (int ordinal : parts.ordinalsIn(relative)) {
                ManifestPart part = all.get(ordinal);
                // As Spark's index: no empty file, no hidden name; then the judge, before any status is made.
                if (part.length() > 0 && listable(part.path()) && dataName(part.path())
                        && (filter == null || filter.keep(ordinal))) {
                    files.add(parts.status(ordinal));
                }
            }
        }
        return PartitionDirectory$.MODULE$.apply(values, files.toArray(new FileStatus[0]));
    }

    /** Every file, in the order Spark's index gives them (directories depth-first, the manifest's order within). */
    Iterator<FileStatus> allFiles() {
        Snapshot current = snapshot;
        List<ManifestPart> all = current.parts().all();
        Iterator<String> directories = current.partitions().directories().iterator();
        return new Iterator<>() {
            private int[] ordinals = new int[0];
            private int next;
            private String directory;

            @Override
            public boolean hasNext() {
                while (true) {
                    while (next < ordinals.length) {
                        if (listable(all.get(ordinals[next]).path())) {
                            return true;
                        }
                        next++;
                    }
                    if (!directories.hasNext()) {
                        return false;
                    }
                    directory = directories.next();
                    ordinals = current.parts().ordinalsIn(directory);
                    next = 0;
                }
            }

            @Override
            public FileStatus next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.parts().status(ordinals[next++]);
            }
        };
    }

    /**
     * The file Spark's Parquet schema inference reads when it does not merge schemas: of all files, the one
     * whose path sorts first (summary files aside, which a Stork dataset does not have). Found by the
     * parts' relative paths, which share the root's prefix; no status is made but the one returned.
     */
    FileStatus firstByPath() {
        Snapshot current = snapshot;
        List<ManifestPart> all = current.parts().all();
        int first = -1;
        for (String directory : current.partitions().directories()) {
            for (int ordinal : current.parts().ordinalsIn(directory)) {
                String path = all.get(ordinal).path();
                if (listable(path) && (first < 0 || path.compareTo(all.get(first).path()) < 0)) {
                    first = ordinal;
                }
            }
        }
        return first < 0 ? null : current.parts().status(first);
    }

    @Override
    public Seq<Path> rootPaths() {
        return CollectionConverters.asScala(List.of(root)).toList();
    }

    @Override
    public String[] inputFiles() {
        List<String> files = new ArrayList<>();
        allFiles().forEachRemaining(f -> files.add(f.getPath().toUri().toString()));
        return files.toArray(new String[0]);
    }

    @Override
    public long sizeInBytes() {
        long known = size;
        if (known < 0) {
            Snapshot current = snapshot;
            List<ManifestPart> all = current.parts().all();
            known = 0;
            for (String directory : current.partitions().directories()) {
                for (int ordinal : current.parts().ordinalsIn(directory)) {
                    if (listable(all.get(ordinal).path())) {
                        known += all.get(ordinal).length();
                    }
                }
            }
            size = known;
        }
        return known;
    }

    @Override
    public StructType partitionSchema() {
        return snapshot.partitions().schema();
    }

    /** Reads the dataset's current generation (one conditional GET while the manifest is unchanged). */
    @Override
    public void refresh() {
        try {
            if (root.getFileSystem(hadoopConf) instanceof StorkFileSystem fs) {
                DatasetParts parts = fs.datasets().atRoot(root).orElseThrow(() -> new java.io.FileNotFoundException(
                        "Stork dataset " + root + " has no manifest any more"));
                if (parts.generation() != snapshot.parts().generation()) {
                    snapshot = new Snapshot(parts, ManifestPartitions.of(session, parts, options, userSchema));
                    size = -1;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a part's path is one Spark's listing returns: no segment hidden ({@code _x}, {@code .x}). */
    static boolean listable(String relativePath) {
        int start = 0;
        while (true) {
            char c = start < relativePath.length() ? relativePath.charAt(start) : 'x';
            int slash = relativePath.indexOf('/', start);
            int end = slash < 0 ? relativePath.length() : slash;
            // The common case costs no string: only a name that starts with _ or . or ends as a copy is looked at.
            if ((c == '_' || c == '.' || relativePath.startsWith("._COPYING_", end - 10))
                    && HadoopFSUtils$.MODULE$.shouldFilterOutPathName(relativePath.substring(start, end))) {
                return false;
            }
            if (slash < 0) {
                return true;
            }
            start = slash + 1;
        }
    }

    /** Whether a listed file's name is data to Spark (not a summary such as {@code _metadata}). */
    static boolean dataName(String relativePath) {
        int slash = relativePath.lastIndexOf('/');
        char c = slash + 1 < relativePath.length() ? relativePath.charAt(slash + 1) : 'x';
        if (c == '.') {
            return false;
        }
        return c != '_' || relativePath.indexOf('=', slash + 1) >= 0;
    }

    /**
     * Equal to another index over the same root, whatever its generation, as Spark's index compares root
     * paths: Spark's cache finds a cached DataFrame's data for a new read of the same dataset by this.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof ManifestFileIndex other && root.equals(other.root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }

    @Override
    public String toString() {
        return "StorkManifestFileIndex(" + root + "@v" + snapshot.parts().generation() + ")";
    }
}
