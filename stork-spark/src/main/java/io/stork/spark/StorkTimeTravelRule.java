package io.stork.spark;

import io.stork.manifest.SnapshotRef;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.InMemoryFileIndex;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.NoopCache$;
import scala.Option;
import scala.PartialFunction$;
import scala.runtime.AbstractFunction1;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Delta Lake's read options on {@code stork://} datasets: {@code spark.read.option("versionAsOf", 3)} and
 * {@code option("timestampAsOf", "2026-11-23 10:00:00")} (UTC) read that past generation. A read of a
 * dataset's root is resolved to the pinned generation directly by
 * {@link io.stork.spark.read.ManifestRelationRule}; for reads it leaves to Spark, Spark resolves the file
 * source before this rule sees it, so this rule replaces the resolved relation's file index with one over
 * the pinned path ({@code <dataset>@v3}, docs/hadoop-filesystem.md#time-travel), keeping the schema Spark
 * inferred (the current generation's). The current generation's listing and schema inference are then
 * the price: one manifest call, and a footer read for Parquet/ORC.
 */
public final class StorkTimeTravelRule extends Rule<LogicalPlan> {

    static final String VERSION_AS_OF = "versionasof";
    static final String TIMESTAMP_AS_OF = "timestampasof";

    private final SparkSession session;

    StorkTimeTravelRule(SparkSession session) {
        this.session = session;
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        return plan.transformUp(PartialFunction$.MODULE$.fromFunction(new AbstractFunction1<LogicalPlan, LogicalPlan>() {
            @Override
            public LogicalPlan apply(LogicalPlan node) {
                return rewrite(node);
            }
        }));
    }

    private LogicalPlan rewrite(LogicalPlan node) {
        if (!(node instanceof LogicalRelation relation) || !(relation.relation() instanceof HadoopFsRelation files)) {
            return node;
        }
        Optional<String> suffix = suffix(files.options());
        if (suffix.isEmpty()) {
            return node;
        }
        List<Path> pinned = new ArrayList<>();
        for (Path root : CollectionConverters.asJava(files.location().rootPaths())) {
            String key = root.toUri().getPath();
            if (!"stork".equals(root.toUri().getScheme()) || SnapshotRef.of(key.startsWith("/") ? key.substring(1) : key)
                    .isPresent()) {
                return node; // not Stork's, or pinned already (this rule ran)
            }
            pinned.add(new Path(root.toString() + suffix.get()));
        }
        InMemoryFileIndex index = new InMemoryFileIndex(session, CollectionConverters.asScala(pinned).toSeq(),
                files.options(), Option.apply(files.schema()), NoopCache$.MODULE$, Option.empty(), Option.empty());
        HadoopFsRelation atGeneration = files.copy(index, files.partitionSchema(), files.dataSchema(),
                files.bucketSpec(), files.fileFormat(), files.options(), files.sparkSession());
        return relation.copy(atGeneration, relation.output(), relation.catalogTable(), relation.isStreaming(),
                relation.stream());
    }

    /** The path suffix the options ask for, or empty; a malformed option fails with one line. */
    public static Optional<String> suffix(scala.collection.immutable.Map<String, String> options) {
        String version = null;
        String timestamp = null;
        for (var entry : CollectionConverters.asJava(options).entrySet()) {
            String name = entry.getKey().toLowerCase(Locale.ROOT);
            if (name.equals(VERSION_AS_OF)) {
                version = entry.getValue().trim();
            } else if (name.equals(TIMESTAMP_AS_OF)) {
                timestamp = entry.getValue().trim();
            }
        }
        if (version != null && timestamp != null) {
            throw new IllegalArgumentException("give versionAsOf or timestampAsOf, not both");
        }
        if (version != null) {
            try {
                long generation = Long.parseLong(version);
                if (generation < 1) {
                    throw new NumberFormatException();
                }
                return Optional.of(SnapshotRef.generationSuffix(generation));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("versionAsOf must be a generation number (1, 2, ...), not '"
                        + version + "'");
            }
        }
        if (timestamp != null) {
            return Optional.of(SnapshotRef.timestampSuffix(instant(timestamp)));
        }
        return Optional.empty();
    }

    /** An ISO-8601 instant ({@code 2026-11-23T10:00:00Z}) or a UTC date-time ({@code 2026-11-23 10:00:00[.SSS]}). */
    public static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException notAnInstant) {
            try {
                return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("timestampAsOf must be a UTC time such as '2026-11-23 10:00:00' "
                        + "or an ISO-8601 instant, not '" + text + "'");
            }
        }
    }
}
