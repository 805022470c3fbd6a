package io.stork.spark.read;

import io.stork.hadoop.DatasetParts;
import io.stork.hadoop.StorkFileSystem;
import io.stork.manifest.SnapshotRef;
import io.stork.spark.StorkTimeTravelRule;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.RelationTimeTravel;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.catalog.CatalogUtils$;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedDataSource;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap$;
import org.apache.spark.sql.execution.datasources.DataSource$;
import org.apache.spark.sql.execution.datasources.DataSourceUtils$;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation$;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.execution.datasources.v2.FileDataSourceV2;
import org.apache.spark.sql.execution.datasources.parquet.ParquetOptions;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.SchemaUtils$;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.LazyList$;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * Resolves a read of a Stork dataset's root ({@code spark.read.parquet("stork://b/events")}, any built-in
 * file format on Spark's V1 path, and SQL on it: {@code SELECT .. FROM parquet.`stork://b/events`}) into a relation whose file index reads the manifest
 * ({@link ManifestFileIndex}) instead of Spark's index, which lists and keeps every file when the DataFrame
 * is made. The schema is the user's, else the one the manifest records ({@link RecordedSchema}), else the
 * format's inference over the files Spark would give it (for Parquet without schema merging, the one file
 * Spark reads: no other status is made). A catalog table on a Stork location resolves the same way
 * ({@link CatalogTableRead}).
 *
 * <p>Injected as a hint-resolution rule because that batch runs before the one where Spark's
 * {@code ResolveDataSource} resolves the same node (extension resolution rules run after it). Whatever it
 * does not answer exactly as Spark would is left to Spark: several paths, globs, a path inside a dataset,
 * listing options ({@code basePath}, {@code pathGlobFilter}, {@code recursiveFileLookup},
 * {@code modifiedBefore/After}), a Hadoop input path filter, streaming reads,
 * V2 sources, and any failure (Spark then reports it). Off with {@value #ENABLED}{@code =false}.
 */
public final class ManifestRelationRule extends Rule<LogicalPlan> {

    public static final String ENABLED = "spark.stork.read.manifestIndex";
    private static final Logger LOG = LoggerFactory.getLogger(ManifestRelationRule.class);
    private static final List<String> LISTING_OPTIONS = List.of("basePath", "pathGlobFilter", "recursiveFileLookup",
            "modifiedBefore", "modifiedAfter");

    private final SparkSession session;

    public ManifestRelationRule(SparkSession session) {
        this.session = session;
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        if (!Boolean.parseBoolean(session.sessionState().conf().getConfString(ENABLED, "true").trim())) {
            return plan;
        }
        // A relation still under a time-travel clause here is not a Stork dataset's (Stork's parser rewrote those to
        // the pinned read, io.stork.spark.sql.StorkRelations): another source's own time travel, left alone.
        java.util.Set<LogicalPlan> leftToSpark = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        plan.foreach(node -> {
            if (node instanceof RelationTimeTravel travel) {
                leftToSpark.add(travel.relation());
            }
            // An INSERT's target table is Spark's to resolve (a write, with its own checks).
            if (node instanceof org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement insert) {
                leftToSpark.add(insert.table());
            }
            return null;
        });
        return plan.resolveOperatorsUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
            @Override
            public boolean isDefinedAt(LogicalPlan node) {
                return node instanceof UnresolvedDataSource
                        || node instanceof UnresolvedRelation && !leftToSpark.contains(node);
            }

            @Override
            public <A1 extends LogicalPlan, B1> B1 applyOrElse(A1 node, scala.Function1<A1, B1> otherwise) {
                LogicalPlan resolved;
                if (node instanceof UnresolvedDataSource source) {
                    resolved = resolve(source);
                } else if (node instanceof UnresolvedRelation relation && !leftToSpark.contains(node)) {
                    resolved = resolve(relation);
                } else {
                    return otherwise.apply(node);
                }
                @SuppressWarnings("unchecked")
                B1 result = (B1) resolved;
                return result;
            }
        });
    }

    /** A DataFrameReader's read ({@code spark.read.parquet(path)}), as Spark's ResolveDataSource takes it. */
    private LogicalPlan resolve(UnresolvedDataSource source) {
        if (source.isStreaming()) {
            return source;
        }
        CaseInsensitiveMap<String> options = source.options();
        List<String> paths = CollectionConverters.asJava(source.paths());
        SQLConf conf = session.sessionState().conf();
        String path;
        CaseInsensitiveMap<String> relationOptions;
        if (paths.size() == 1 && !options.contains("path")) {
            path = paths.get(0);
            // As Spark's resolution: one path goes into the options (unless the legacy behaviour is on).
            relationOptions = conf.legacyPathOptionBehavior() ? options : options.$plus(new Tuple2<>("path", path));
        } else if (paths.isEmpty() && options.contains("path")) {
            path = option(options, "path");
            relationOptions = options;
        } else {
            return source;
        }
        LogicalPlan relation = read(source.format(), source.userSpecifiedSchema(), options, relationOptions, path, true);
        return relation != null ? relation : source;
    }

    /**
     * SQL on a dataset ({@code SELECT .. FROM parquet.`stork://b/events`}), as Spark's ResolveSQLOnFile takes
     * it, unless the name is a table's: a database or catalog named like the format comes first in Spark.
     */
    private LogicalPlan resolve(UnresolvedRelation relation) {
        List<String> name = CollectionConverters.asJava(relation.multipartIdentifier());
        SQLConf conf = session.sessionState().conf();
        if (name.size() != 2 || !name.get(1).startsWith(StorkFileSystem.SCHEME + "://")) {
            try {
                LogicalPlan table = CatalogTableRead.resolve(session, this, relation);
                return table != null ? table : relation;
            } catch (RuntimeException e) {
                LOG.debug("Stork leaves table {} to Spark: {}", name, e.toString());
                return relation;
            }
        }
        if (relation.isStreaming() || !conf.runSQLonFile()) {
            return relation;
        }
        try {
            if (session.sessionState().catalog().databaseExists(name.get(0))
                    || conf.contains("spark.sql.catalog." + name.get(0))) {
                return relation;
            }
            CaseInsensitiveMap<String> options = CaseInsensitiveMap$.MODULE$.apply(scala.collection.immutable.Map.from(
                    CollectionConverters.asScala(relation.options().asCaseSensitiveMap())));
            String path = CatalogUtils$.MODULE$.stringToURI(name.get(1)).toString();
            LogicalPlan resolved = read(name.get(0), Option.empty(), options, options, path, false);
            return resolved != null ? resolved : relation;
        } catch (RuntimeException e) {
            LOG.debug("Stork leaves {} to Spark's file index: {}", name, e.toString());
            return relation;
        }
    }

    /**
     * The relation over the manifest for a read of {@code path} as {@code format}, or null to leave it to
     * Spark. {@code v2Applies}: whether Spark would read the format through its V2 path here (a
     * DataFrameReader may; SQL on files never does).
     */
    LogicalPlan read(String formatName, Option<StructType> userSchema, CaseInsensitiveMap<String> options,
                             CaseInsensitiveMap<String> relationOptions, String path, boolean v2Applies) {
        for (String option : LISTING_OPTIONS) {
            if (options.contains(option)) {
                return null;
            }
        }
        if (!path.startsWith(StorkFileSystem.SCHEME + "://") || isGlob(path)) {
            return null;
        }
        SQLConf conf = session.sessionState().conf();
        try {
            if (v2Applies && DataSource$.MODULE$.lookupDataSourceV2(formatName, conf).isDefined()) {
                return null;
            }
            Class<?> formatClass = DataSource$.MODULE$.lookupDataSource(formatName, conf);
            // As Spark's V1 resolution: a built-in V2 file source reads through its V1 file format.
            Object provider = formatClass.getDeclaredConstructor().newInstance();
            if (provider instanceof FileDataSourceV2 v2) {
                formatClass = v2.fallbackFileFormat();
            }
            if (!FileFormat.class.isAssignableFrom(formatClass)) {
                return null;
            }
            Configuration hadoopConf = session.sessionState().newHadoopConfWithOptions(options.originalMap());
            if (hadoopConf.get("mapreduce.input.pathFilter.class") != null) {
                return null;
            }
            return relation(userSchema, path, relationOptions, (FileFormat) formatClass.getDeclaredConstructor()
                    .newInstance(), hadoopConf);
        } catch (IOException | ReflectiveOperationException | RuntimeException e) {
            // Spark's own resolution reads the same path and reports what is wrong, as without Stork.
            LOG.debug("Stork leaves {} to Spark's file index: {}", path, e.toString());
            return null;
        }
    }

    private LogicalPlan relation(Option<StructType> userSchema, String path, CaseInsensitiveMap<String> options,
                                 FileFormat format, Configuration hadoopConf) throws IOException {
        Path given = new Path(path);
        FileSystem fs = given.getFileSystem(hadoopConf);
        if (!(fs instanceof StorkFileSystem stork)) {
            return null;
        }
        Path root = fs.makeQualified(given);
        Optional<String> travel = StorkTimeTravelRule.suffix(options);
        if (travel.isPresent() && SnapshotRef.of(root.toUri().getPath().substring(1)).isEmpty()) {
            root = new Path(root + travel.get());
        }
        // The manifest a listing of the root would read (one GET, or a conditional one when cached); Spark's
        // existence check is not made first: for a directory that is no dataset's root, the answer "no
        // manifest" is what Spark's own status call would learn, and it is kept, so leaving the read to
        // Spark costs no call it would not make anyway.
        Optional<DatasetParts> parts = stork.datasets().atRoot(root);
        SQLConf conf = session.sessionState().conf();
        // Spark would look for a streaming sink's log (_spark_metadata) first; under a dataset's root the
        // manifest governs what exists, so the answer is no (and asking would index every part by path).
        if (parts.isEmpty()) {
            return null;
        }
        ManifestFileIndex index = ManifestFileIndex.of(session, root, hadoopConf, options, userSchema, parts.get());
        StructType partitionSchema = index.partitionSchema();
        StructType dataSchema;
        if (userSchema.isDefined()) {
            java.util.List<StructField> fields = new java.util.ArrayList<>();
            for (StructField field : userSchema.get().fields()) {
                boolean partitionColumn = false;
                for (String name : partitionSchema.fieldNames()) {
                    partitionColumn |= conf.caseSensitiveAnalysis() ? name.equals(field.name())
                            : name.equalsIgnoreCase(field.name());
                }
                if (!partitionColumn) {
                    fields.add(field);
                }
            }
            dataSchema = new StructType(fields.toArray(new StructField[0]));
        } else if ((dataSchema = RecordedSchema.dataSchema(session, parts.get(), format, options, partitionSchema))
                != null) {
            LOG.debug("Stork reads {} with the schema its manifest records", root);
        } else {
            Option<StructType> inferred = format.inferSchema(session, options.removed("path"),
                    schemaFiles(format, index, options, conf));
            if (inferred.isEmpty()) {
                return null; // Spark says that the schema cannot be inferred
            }
            dataSchema = inferred.get();
        }
        HadoopFsRelation relation = new HadoopFsRelation(index, partitionSchema, dataSchema.asNullable(),
                Option.empty(), format, options, session);
        SchemaUtils$.MODULE$.checkSchemaColumnNameDuplication(relation.dataSchema(), conf.caseSensitiveAnalysis());
        SchemaUtils$.MODULE$.checkSchemaColumnNameDuplication(relation.partitionSchema(), conf.caseSensitiveAnalysis());
        DataSourceUtils$.MODULE$.verifySchema(format, relation.dataSchema(), true);
        LOG.debug("Stork reads {} from its manifest, generation {}", root, parts.get().generation());
        return LogicalRelation$.MODULE$.apply(relation, false);
    }

    /**
     * The files schema inference is given. Parquet without schema merging reads one file, the first by
     * path: only that one's status is made. Other formats get every file as a lazy sequence, so a format
     * that reads the first few (ORC) makes only those.
     */
    private static Seq<FileStatus> schemaFiles(FileFormat format, ManifestFileIndex index,
                                               CaseInsensitiveMap<String> options, SQLConf conf) {
        if (format instanceof ParquetFileFormat && !new ParquetOptions(options, conf).mergeSchema()) {
            FileStatus first = index.firstByPath();
            return CollectionConverters.asScala(first == null ? List.<FileStatus>of() : List.of(first)).toList();
        }
        return LazyList$.MODULE$.from(CollectionConverters.asScala(index.allFiles()));
    }

    private static boolean isGlob(String path) {
        for (char c : "{}[]*?\\".toCharArray()) {
            if (path.indexOf(c) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** An option's value, or null. */
    static String option(CaseInsensitiveMap<String> options, String key) {
        Option<String> value = options.get(key);
        return value.isDefined() ? value.get() : null;
    }
}
