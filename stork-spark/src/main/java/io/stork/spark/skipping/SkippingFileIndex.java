package io.stork.spark.skipping;

import io.stork.hadoop.DatasetParts;
import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.ManifestPart;
import io.stork.skipping.Evaluator;
import io.stork.skipping.expr.Predicate;
import io.stork.skipping.spi.IndexTypes;
import io.stork.spark.read.ManifestFileIndex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.execution.datasources.FileIndex;
import org.apache.spark.sql.execution.datasources.FileStatusWithMetadata;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A file index that lists through another (after its partition pruning) and then drops the objects whose
 * statistics prove that no row can pass the scan's filters, before any object is opened. Statistics are
 * the manifest's: the manifest the listing came from is cached by the file system, so judging costs no
 * call (one GET if it has expired). Objects the manifest has none for are looked up in the dataset's
 * {@code index} command output ({@link IndexedObjects}, one GET per dataset and query). An object is dropped only when its statistics are for the object
 * listed (same length and ETag); objects without statistics are read. Any error reads everything, with
 * one warning line.
 */
public final class SkippingFileIndex implements FileIndex {

    private static final Logger LOG = LoggerFactory.getLogger(SkippingFileIndex.class);

    private final FileIndex delegate;
    private final Configuration hadoopConf;
    private final IndexTypes indexTypes;
    private volatile ScanReport lastScan;
    /** Reports by the data filters of the listing (a scan's), for the scan's SQL metrics; the latest few. */
    private final Map<Seq<Expression>, ScanReport> reports = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Seq<Expression>, ScanReport> eldest) {
                    return size() > 32;
                }
            });

    /** Where the block cache is on: the files' ranges located on executor hosts; else null. */
    private final io.stork.spark.cache.CacheAffinity affinity;
    /** Told of each judged scan of a manifest dataset (the query history); null: nobody. */
    private final ScanObserver observer;

    public SkippingFileIndex(FileIndex delegate, Configuration hadoopConf) {
        this(delegate, hadoopConf, null, null);
    }

    public SkippingFileIndex(FileIndex delegate, Configuration hadoopConf, io.stork.spark.cache.CacheAffinity affinity,
                             ScanObserver observer) {
        this.delegate = delegate;
        this.hadoopConf = hadoopConf;
        this.indexTypes = IndexTypes.load(Thread.currentThread().getContextClassLoader());
        this.affinity = affinity;
        this.observer = observer;
    }

    /** The listing, its files located on the hosts whose block caches hold them when affinity is on. */
    private Seq<PartitionDirectory> located(Seq<PartitionDirectory> listed) {
        if (affinity == null) {
            return listed;
        }
        try {
            return CollectionConverters.asScala(affinity.locate(CollectionConverters.asJava(listed))).toList();
        } catch (RuntimeException e) {
            LOG.warn("Stork cache affinity failed on {}, leaving the files where Spark puts them: {}",
                    rootPaths().mkString(", "), e.toString());
            return listed;
        }
    }

    public FileIndex delegate() {
        return delegate;
    }

    /** What the last listing skipped; empty before the first or when it had no filter to judge by. */
    public Optional<ScanReport> lastScan() {
        return Optional.ofNullable(lastScan);
    }

    /** What the latest listing with these data filters skipped (a scan's filters). */
    public Optional<ScanReport> reportFor(Seq<Expression> dataFilters) {
        return Optional.ofNullable(reports.get(dataFilters));
    }

    @Override
    public Seq<PartitionDirectory> listFiles(Seq<Expression> partitionFilters, Seq<Expression> dataFilters) {
        if (dataFilters.isEmpty()) {
            return located(delegate.listFiles(partitionFilters, dataFilters));
        }
        long start = System.nanoTime();
        Predicate filter = FilterTranslation.translate(CollectionConverters.asJava(dataFilters));
        Predicate normalized = Evaluator.normalize(filter);
        java.util.Set<String> columns = Evaluator.columns(normalized);
        if (delegate instanceof ManifestFileIndex manifest) {
            return judgedByPosition(manifest, partitionFilters, dataFilters, filter, normalized, columns, start);
        }
        Seq<PartitionDirectory> listed = delegate.listFiles(partitionFilters, dataFilters);
        try {
            List<PartitionDirectory> kept = new ArrayList<>();
            long[] counts = new long[5]; // listed objects, bytes; read objects, bytes; with statistics
            Map<Path, Optional<DatasetParts>> datasets = new HashMap<>();
            Map<Path, Optional<IndexedObjects>> indexed = new HashMap<>();
            Judged[] last = new Judged[1]; // the previous file's dataset and table: most files share them
            for (PartitionDirectory directory : CollectionConverters.asJava(listed)) {
                List<FileStatusWithMetadata> files = new ArrayList<>();
                for (FileStatusWithMetadata file : CollectionConverters.asJava(directory.files())) {
                    counts[0]++;
                    counts[1] += file.getLen();
                    boolean may = true;
                    Optional<Judged> judged = columns.isEmpty() ? Optional.empty() : judged(file.fileStatus(), datasets, last);
                    if (judged.isPresent()) {
                        counts[4]++;
                        may = judged.get().statistics().mayMatch(judged.get().ordinal(), normalized, columns);
                    } else if (!columns.isEmpty()) {
                        Optional<IndexedObjects> index = indexOf(file.getPath(), indexed);
                        String etag = file.fileStatus() instanceof EtagSource source ? source.getEtag() : null;
                        int row = index.map(i -> i.ordinal(file.getPath(), file.getLen(), etag)).orElse(-1);
                        if (row >= 0) {
                            counts[4]++;
                            may = index.get().table().mayMatch(row, normalized, columns);
                        }
                    }
                    if (may) {
                        files.add(file);
                        counts[2]++;
                        counts[3] += file.getLen();
                    }
                }
                if (!files.isEmpty()) {
                    kept.add(directory.copy(directory.values(), CollectionConverters.asScala(files).toList()));
                }
            }
            ScanReport report = new ScanReport(filter.toString(), counts[0], counts[1], counts[2], counts[3], counts[4],
                    System.nanoTime() - start);
            report(dataFilters, report);
            return located(CollectionConverters.asScala(kept).toList());
        } catch (IOException | RuntimeException e) {
            LOG.warn("Stork data skipping failed on {}, reading every object: {}", rootPaths().mkString(", "), e.toString());
            return located(listed);
        }
    }

    /**
     * A listing from the manifest, each part judged by its position in the generation before its status is
     * made: a part ruled out costs neither a status nor a path.
     */
    private Seq<PartitionDirectory> judgedByPosition(ManifestFileIndex manifest, Seq<Expression> partitionFilters,
                                                     Seq<Expression> dataFilters, Predicate filter,
                                                     Predicate normalized, java.util.Set<String> columns, long start) {
        long[] counts = new long[5]; // listed objects, bytes; read objects, bytes; with statistics
        Seq<PartitionDirectory> kept;
        try {
            kept = manifest.listFiles(partitionFilters, dataFilters, parts -> judge(parts, normalized, columns, counts));
        } catch (RuntimeException e) {
            LOG.warn("Stork data skipping failed on {}, reading every object: {}", rootPaths().mkString(", "), e.toString());
            return located(manifest.listFiles(partitionFilters, dataFilters));
        }
        report(dataFilters, new ScanReport(filter.toString(), counts[0], counts[1], counts[2], counts[3], counts[4],
                System.nanoTime() - start));
        observe(manifest, normalized);
        return located(kept);
    }

    private void observe(ManifestFileIndex manifest, Predicate normalized) {
        if (observer == null) {
            return;
        }
        try {
            for (Path root : CollectionConverters.asJava(manifest.rootPaths())) {
                observer.judged(root, normalized);
            }
        } catch (RuntimeException e) {
            LOG.debug("Stork data skipping: the scan observer failed ({})", e.toString());
        }
    }

    private ManifestFileIndex.PartFilter judge(DatasetParts parts, Predicate normalized, java.util.Set<String> columns,
                                               long[] counts) {
        GenerationStatistics statistics = columns.isEmpty() ? null
                : parts.derived(GenerationStatistics.NAME, p -> GenerationStatistics.of(p, indexTypes));
        List<ManifestPart> all = parts.all();
        Map<Path, Optional<IndexedObjects>> indexed = new HashMap<>();
        return ordinal -> {
            ManifestPart part = all.get(ordinal);
            counts[0]++;
            counts[1] += part.length();
            boolean may = true;
            if (statistics != null && statistics.hasStatistics(ordinal)) {
                counts[4]++;
                may = statistics.mayMatch(ordinal, normalized, columns);
            } else if (statistics != null) {
                // Committed without statistics: the index command's, when it indexed the dataset.
                Optional<IndexedObjects> index = indexed.computeIfAbsent(parts.root(), this::load);
                int row = index.map(i -> i.ordinal(part.path(), part.length(), part.etag())).orElse(-1);
                if (row >= 0) {
                    counts[4]++;
                    may = index.get().table().mayMatch(row, normalized, columns);
                }
            }
            if (may) {
                counts[2]++;
                counts[3] += part.length();
            }
            return may;
        };
    }

    private void report(Seq<Expression> dataFilters, ScanReport report) {
        lastScan = report;
        reports.put(dataFilters, report);
        LatestScans.record(delegate, report);
        LOG.info("Stork data skipping on {}: {}", rootPaths().mkString(", "), report);
    }

    private Optional<IndexedObjects> load(Path root) {
        try {
            return IndexedObjects.load(root, hadoopConf, indexTypes);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The {@code index} command's statistics of the root holding {@code file}: one GET per root and listing. */
    private Optional<IndexedObjects> indexOf(Path file, Map<Path, Optional<IndexedObjects>> indexed) {
        for (Path root : CollectionConverters.asJava(rootPaths())) {
            if (IndexCommand.relative(root, file) != null) {
                return indexed.computeIfAbsent(root, this::load);
            }
        }
        return Optional.empty();
    }

    /** A listed object's row in its generation's statistics table. */
    private record Judged(DatasetParts dataset, GenerationStatistics statistics, int ordinal) {
    }

    /**
     * The statistics row of a listed object, when the manifest holds current statistics for it; {@code last}
     * holds the previous answer's dataset and table, which the next file of the same dataset reuses.
     */
    private Optional<Judged> judged(FileStatus status, Map<Path, Optional<DatasetParts>> datasets, Judged[] last)
            throws IOException {
        Optional<DatasetParts.Listed> listed = DatasetParts.listed(status, last[0] == null ? null : last[0].dataset());
        Optional<DatasetParts> parts;
        Optional<ManifestPart> part;
        int knownOrdinal = -1;
        if (listed.isPresent()) {
            knownOrdinal = listed.get().ordinal();
            // Listed from the manifest (the usual case): its part, no lookup by path.
            parts = Optional.of(listed.get().dataset());
            part = Optional.of(listed.get().part());
        } else {
            Path file = status.getPath();
            if (!StorkFileSystem.SCHEME.equals(file.toUri().getScheme())) {
                return Optional.empty();
            }
            parts = datasets.computeIfAbsent(file.getParent(), this::datasetOf);
            if (parts.isEmpty()) {
                return Optional.empty();
            }
            part = parts.get().part(file);
        }
        if (part.isEmpty() || !part.get().hasStatistics() || part.get().length() != status.getLen()) {
            return Optional.empty();
        }
        String listedEtag = status instanceof EtagSource source ? source.getEtag() : null;
        if (listedEtag != null && part.get().etag() != null && !listedEtag.equals(part.get().etag())) {
            return Optional.empty();
        }
        GenerationStatistics statistics = last[0] != null && last[0].dataset() == parts.get() ? last[0].statistics()
                : parts.get().derived(GenerationStatistics.NAME, p -> GenerationStatistics.of(p, indexTypes));
        int ordinal = knownOrdinal >= 0 && statistics.isOf(parts.get(), knownOrdinal, part.get()) ? knownOrdinal
                : statistics.ordinal(part.get());
        if (ordinal < 0 || !statistics.hasStatistics(ordinal)) {
            return Optional.empty();
        }
        Judged judged = new Judged(parts.get(), statistics, ordinal);
        last[0] = judged;
        return Optional.of(judged);
    }

    private Optional<DatasetParts> datasetOf(Path directory) {
        try {
            FileSystem fs = directory.getFileSystem(hadoopConf);
            return fs instanceof StorkFileSystem stork ? stork.datasets().covering(directory) : Optional.empty();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public Seq<Path> rootPaths() {
        return delegate.rootPaths();
    }

    @Override
    public String[] inputFiles() {
        return delegate.inputFiles();
    }

    @Override
    public void refresh() {
        delegate.refresh();
    }

    @Override
    public long sizeInBytes() {
        return delegate.sizeInBytes();
    }

    @Override
    public StructType partitionSchema() {
        return delegate.partitionSchema();
    }

    @Override
    public Option<Object> metadataOpsTimeNs() {
        return delegate.metadataOpsTimeNs();
    }

    @Override
    public String toString() {
        return "StorkSkippingFileIndex(" + delegate + ")";
    }
}
