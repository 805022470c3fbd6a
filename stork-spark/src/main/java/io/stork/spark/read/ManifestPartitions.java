package io.stork.spark.read;

import io.stork.hadoop.DatasetParts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InterpretedPredicate;
import org.apache.spark.sql.catalyst.expressions.Predicate$;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap;
import org.apache.spark.sql.execution.datasources.PartitionPath;
import org.apache.spark.sql.execution.datasources.PartitionSpec;
import org.apache.spark.sql.execution.datasources.PartitioningUtils$;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * The partitions of one dataset generation, found as Spark's own file index finds them but from the
 * manifest's directories instead of a listing: the same directories (those a listing would descend into,
 * holding data files) go through Spark's {@code PartitioningUtils.parsePartitions} with the same settings,
 * so column names, types and values are Spark's. Immutable.
 */
final class ManifestPartitions {

    /** A partition: its values, and its directory relative to the dataset root. */
    record Partition(InternalRow values, String relative) {
    }

    private final PartitionSpec spec;
    private final List<Partition> partitions;
    /** Every directory holding listable parts, in the order a recursive listing visits them. */
    private final List<String> directories;

    private ManifestPartitions(PartitionSpec spec, List<Partition> partitions, List<String> directories) {
        this.spec = spec;
        this.partitions = partitions;
        this.directories = directories;
    }

    static ManifestPartitions of(SparkSession session, DatasetParts parts, CaseInsensitiveMap<String> options,
                                 Option<StructType> userSchema) {
        List<String> directories = new ArrayList<>();
        for (String directory : parts.directories()) {
            if (ManifestFileIndex.listable(directory)) {
                directories.add(directory);
            }
        }
        // A recursive listing takes a directory's files, then its subdirectories by name: Spark's file order.
        directories.sort(LISTING_ORDER);
        Map<Path, String> relativeByPath = new HashMap<>();
        List<Path> leafDirectories = new ArrayList<>();
        for (String directory : directories) {
            if (hasDataFile(parts, directory)) {
                Path path = parts.directory(directory);
                relativeByPath.put(path, directory);
                leafDirectories.add(path);
            }
        }
        SQLConf conf = session.sessionState().conf();
        String timeZone = ManifestRelationRule.option(options, "timeZone");
        String ignoreInvalid = ManifestRelationRule.option(options, "ignoreInvalidPartitionPaths");
        scala.collection.immutable.Set<Path> basePaths = CollectionConverters.asScala(Set.of(parts.root())).toSet();
        PartitionSpec spec = PartitioningUtils$.MODULE$.parsePartitions(
                CollectionConverters.asScala(leafDirectories).toSeq(), conf.partitionColumnTypeInferenceEnabled(),
                basePaths, userSchema, conf.caseSensitiveAnalysis(), conf.validatePartitionColumns(),
                timeZone != null ? timeZone : conf.sessionLocalTimeZone(),
                ignoreInvalid != null ? Boolean.parseBoolean(ignoreInvalid.trim()) : conf.ignoreInvalidPartitionPaths());
        List<Partition> partitions = new ArrayList<>();
        for (PartitionPath partition : CollectionConverters.asJava(spec.partitions())) {
            partitions.add(new Partition(partition.values(), relativeByPath.get(partition.path())));
        }
        return new ManifestPartitions(spec, List.copyOf(partitions), List.copyOf(directories));
    }

    StructType schema() {
        return spec.partitionColumns();
    }

    boolean partitioned() {
        return !spec.partitionColumns().isEmpty();
    }

    /** Directories in listing order; for an unpartitioned dataset only the root, as Spark's index reads it. */
    List<String> directories() {
        return partitioned() ? directories : directories.contains("") ? List.of("") : List.of();
    }

    /**
     * The partitions the filters leave, as Spark's own index prunes: filters over partition columns only,
     * evaluated on each partition's values. Spark does not apply these filters again after the scan.
     */
    List<Partition> prune(List<Expression> filters) {
        StructType columns = spec.partitionColumns();
        Set<String> names = new HashSet<>(Arrays.asList(columns.fieldNames()));
        Expression predicate = null;
        for (Expression filter : filters) {
            boolean overPartitions = true;
            for (Attribute a : CollectionConverters.asJava(filter.references().toSeq())) {
                overPartitions &= names.contains(a.name());
            }
            if (overPartitions) {
                predicate = predicate == null ? filter : new And(predicate, filter);
            }
        }
        if (predicate == null) {
            return partitions;
        }
        Expression bound = predicate.transform(new AbstractPartialFunction<Expression, Expression>() {
            @Override
            public boolean isDefinedAt(Expression e) {
                return e instanceof AttributeReference;
            }

            @Override
            public <A1 extends Expression, B1> B1 applyOrElse(A1 e, scala.Function1<A1, B1> otherwise) {
                if (!(e instanceof AttributeReference a)) {
                    return otherwise.apply(e);
                }
                int index = columns.fieldIndex(a.name());
                @SuppressWarnings("unchecked")
                B1 reference = (B1) new BoundReference(index, columns.fields()[index].dataType(), true);
                return reference;
            }
        });
        InterpretedPredicate evaluate = Predicate$.MODULE$.createInterpreted(bound);
        evaluate.initialize(0);
        List<Partition> kept = new ArrayList<>();
        for (Partition partition : partitions) {
            if (evaluate.eval(partition.values())) {
                kept.add(partition);
            }
        }
        return kept;
    }

    /** Whether a directory holds a file Spark counts as data (partition discovery ignores the others). */
    private static boolean hasDataFile(DatasetParts parts, String directory) {
        List<io.stork.manifest.ManifestPart> all = parts.all();
        for (int ordinal : parts.ordinalsIn(directory)) {
            String path = all.get(ordinal).path();
            if (ManifestFileIndex.listable(path) && ManifestFileIndex.dataName(path)) {
                return true;
            }
        }
        return false;
    }

    /** Depth-first by name: a directory before its subdirectories, siblings by name. */
    private static final Comparator<String> LISTING_ORDER = (a, b) -> {
        String[] x = a.isEmpty() ? new String[0] : a.split("/");
        String[] y = b.isEmpty() ? new String[0] : b.split("/");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = x[i].compareTo(y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    };
}
