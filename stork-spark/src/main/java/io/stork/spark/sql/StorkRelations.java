package io.stork.spark.sql;

import io.stork.spark.StorkTimeTravelRule;
import io.stork.spark.dataset.StorkDataset;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.RelationTimeTravel;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataTypes;
import scala.PartialFunction$;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction1;

/**
 * Stork's reads in a parsed plan, resolved before Spark's analyzer sees them:
 * <ul>
 *   <li>{@code <format>.`stork://b/t` VERSION AS OF n | TIMESTAMP AS OF 'time'} (and a session catalog table
 *       on Stork): Spark 4.1 parses the clause and refuses it for file sources; here it becomes the read of
 *       the pinned path ({@code stork://b/t@v3}, docs/hadoop-filesystem.md#time-travel), with the table's
 *       options and schema for a table;</li>
 *   <li>{@code stork.`stork://b/t`}: the dataset read as the data source its parts' names tell;</li>
 *   <li>the metadata tables {@code stork_history(t)}, {@code stork_detail(t)}, {@code stork_files(t [, g])}
 *       and {@code stork_changes(t, from [, to])}: {@link StorkDataset}'s rows, read from the manifest now.</li>
 * </ul>
 */
final class StorkRelations {

    /** Spark's file sources: a time-travel clause on one of these over another file system is refused here. */
    private static final Set<String> FILE_FORMATS = Set.of("parquet", "orc", "json", "csv", "text", "avro", "xml",
            "binaryfile");

    /**
     * Table formats that keep their own log and their own time travel and maintenance (their extensions'
     * statements): Stork leaves their paths and tables alone, even on stork://.
     */
    static final Set<String> OTHER_TABLE_FORMATS = Set.of("delta", "iceberg", "hudi");

    private StorkRelations() {
    }

    static boolean isOtherTableFormat(String format) {
        return format != null && OTHER_TABLE_FORMATS.contains(format.toLowerCase(Locale.ROOT));
    }

    static LogicalPlan resolve(SparkSession session, LogicalPlan plan) {
        return plan.transformUpWithSubqueries(PartialFunction$.MODULE$.fromFunction(
                new AbstractFunction1<LogicalPlan, LogicalPlan>() {
                    @Override
                    public LogicalPlan apply(LogicalPlan node) {
                        return rewrite(session, node);
                    }
                }));
    }

    private static LogicalPlan rewrite(SparkSession session, LogicalPlan node) {
        if (node instanceof RelationTimeTravel travel && travel.relation() instanceof UnresolvedRelation relation) {
            return timeTravel(session, travel, relation);
        }
        if (node instanceof UnresolvedRelation relation) {
            List<String> parts = CollectionConverters.asJava(relation.multipartIdentifier());
            if (parts.size() == 2 && parts.get(0).equalsIgnoreCase("stork") && isStorkPath(parts.get(1))) {
                String format = formatOf(session, parts.get(1));
                return relation.copy(CollectionConverters.asScala(List.of(format, parts.get(1))).toList(),
                        relation.options(), relation.isStreaming());
            }
            return node;
        }
        if (node instanceof UnresolvedTableValuedFunction function) {
            List<String> name = CollectionConverters.asJava(function.name());
            String last = name.get(name.size() - 1).toLowerCase(Locale.ROOT);
            if (name.size() == 1 && last.startsWith(MetadataTables.PREFIX)) {
                return MetadataTables.plan(session, last.substring(MetadataTables.PREFIX.length()),
                        CollectionConverters.asJava(function.functionArgs()));
            }
        }
        return node;
    }

    private static LogicalPlan timeTravel(SparkSession session, RelationTimeTravel travel, UnresolvedRelation relation) {
        List<String> parts = CollectionConverters.asJava(relation.multipartIdentifier());
        String suffix = suffix(travel);
        DataFrameReader reader = session.read().options(relation.options().asCaseSensitiveMap());
        String path;
        String alias = null;
        if (parts.size() == 2 && parts.get(1).contains(":/")) {
            path = parts.get(1);
            if (isOtherTableFormat(parts.get(0))) {
                return travel; // Delta's (Iceberg's) own time travel, wherever the table lives
            }
            if (!isStorkPath(path)) {
                if (FILE_FORMATS.contains(parts.get(0).toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("VERSION AS OF / TIMESTAMP AS OF read past generations of Stork "
                            + "datasets (stork://…), not of '" + path + "'");
                }
                return travel; // another source's own time travel (Delta's, Iceberg's)
            }
            reader.format(parts.get(0).equalsIgnoreCase("stork") ? formatOf(session, path) : parts.get(0));
        } else {
            CatalogTable table = storkTable(session, parts);
            if (table == null) {
                return travel; // not a session catalog table on Stork: Spark's (or a catalog's) own resolution
            }
            path = table.storage().locationUri().get().toString();
            reader.format(table.provider().get()).schema(table.schema())
                    .options(CollectionConverters.asJava(table.storage().properties()));
            alias = table.identifier().table();
        }
        Dataset<Row> pinned;
        try {
            pinned = reader.load(stripSlash(path) + suffix);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(firstLine(e));
        }
        return (alias == null ? pinned : pinned.as(alias)).queryExecution().logical();
    }

    /** The pinned path's suffix, by the read options' rules (one line when the version or time is malformed). */
    private static String suffix(RelationTimeTravel travel) {
        if (travel.version().isDefined()) {
            return StorkTimeTravelRule.suffix(options("versionAsOf", travel.version().get())).orElseThrow();
        }
        Expression time = travel.timestamp().get();
        Object value = time.resolved() && time.foldable() ? time.eval(null) : null;
        String text;
        if (value instanceof Long micros && time.dataType() instanceof org.apache.spark.sql.types.TimestampType) {
            text = Instant.EPOCH.plusNanos(micros * 1000).toString();
        } else if (value != null && time.dataType().equals(DataTypes.StringType)) {
            text = value.toString();
        } else {
            throw new IllegalArgumentException("TIMESTAMP AS OF on a Stork dataset takes a literal time such as "
                    + "'2026-11-23 10:00:00' (UTC), not " + time.sql());
        }
        return StorkTimeTravelRule.suffix(options("timestampAsOf", text)).orElseThrow();
    }

    private static scala.collection.immutable.Map<String, String> options(String key, String value) {
        return scala.collection.immutable.Map.from(CollectionConverters.asScala(Map.of(key, value)));
    }

    /** The session catalog's table of that name if its location is on Stork and it is a data source table. */
    private static CatalogTable storkTable(SparkSession session, List<String> parts) {
        if (parts.isEmpty() || parts.size() > 2) {
            return null;
        }
        TableIdentifier id = new TableIdentifier(parts.get(parts.size() - 1),
                parts.size() == 2 ? scala.Option.apply(parts.get(0)) : scala.Option.empty());
        CatalogTable table;
        try {
            if (!session.sessionState().catalog().tableExists(id)) {
                return null;
            }
            table = session.sessionState().catalog().getTableMetadata(id);
        } catch (Exception e) {
            return null;
        }
        boolean onStork = table.storage().locationUri().isDefined()
                && isStorkPath(table.storage().locationUri().get().toString());
        boolean dataSource = table.provider().isDefined() && !table.provider().get().equalsIgnoreCase("hive")
                && !isOtherTableFormat(table.provider().get());
        return onStork && dataSource ? table : null;
    }

    /** The data source the dataset's parts' names tell; one line when they tell none. */
    static String formatOf(SparkSession session, String path) {
        StorkDataset dataset = StorkDataset.forPath(session, path);
        return dataset.readFormat().orElseThrow(() -> new IllegalArgumentException("stork.`" + path + "`: the "
                + "parts' names tell no data source; name it, as parquet.`" + path + "`"));
    }

    static boolean isStorkPath(String path) {
        return path.toLowerCase(Locale.ROOT).startsWith("stork://");
    }

    private static String stripSlash(String path) {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** An error's innermost first line, for the user. */
    static String firstLine(Throwable e) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = e; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        Throwable inner = chain.get(chain.size() - 1);
        String message = inner.getMessage() == null ? inner.toString() : inner.getMessage();
        return message.lines().findFirst().orElse(inner.toString());
    }
}
