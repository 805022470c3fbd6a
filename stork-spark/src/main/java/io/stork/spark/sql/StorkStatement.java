package io.stork.spark.sql;

import io.stork.spark.dataset.StorkDataset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One of Stork's SQL commands (docs/sql.md), parsed:
 * <pre>
 * DESCRIBE HISTORY &lt;t&gt; [LIMIT n]
 * DESCRIBE DETAIL &lt;t&gt;
 * VACUUM &lt;t&gt; [RETAIN n HOURS] [DRY RUN]
 * RESTORE [TABLE] &lt;t&gt; [TO] VERSION AS OF n | TIMESTAMP AS OF 'time'
 * </pre>
 * where {@code <t>} is {@code stork.`stork://b/t`}, {@code <format>.`stork://b/t`}, {@code 'stork://b/t'} or
 * a session catalog table whose location is on Stork. Run, each is {@link StorkDataset}'s call of the same
 * name, so SQL and the API answer alike.
 *
 * @param kind        the command
 * @param target      the dataset it names
 * @param limit       DESCRIBE HISTORY's LIMIT, or null
 * @param retainHours VACUUM's RETAIN, or null: the dataset's retention setting
 * @param dryRun      VACUUM's DRY RUN
 * @param version     RESTORE's VERSION AS OF, or null
 * @param timestamp   RESTORE's TIMESTAMP AS OF, or null
 */
record StorkStatement(Kind kind, DatasetName target, Integer limit, Double retainHours, boolean dryRun, Long version,
                      String timestamp) {

    enum Kind { HISTORY, DETAIL, VACUUM, RESTORE }

    /** The statement, if it is one of Stork's commands; a malformed one fails with one line. */
    static Optional<StorkStatement> parse(String sql) {
        SqlTokens t;
        try {
            t = SqlTokens.of(sql);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // Spark's parser says what is wrong with it
        }
        if (t.peek() == null) {
            return Optional.empty();
        }
        if ((t.peek().is("DESCRIBE") || t.peek().is("DESC")) && t.peek(1) != null && t.peek(2) != null
                && (t.peek(1).is("HISTORY") || t.peek(1).is("DETAIL"))) {
            t.take();
            Kind kind = t.take().is("HISTORY") ? Kind.HISTORY : Kind.DETAIL;
            String command = "DESCRIBE " + kind;
            DatasetName target = DatasetName.parse(t, command);
            Integer limit = null;
            if (kind == Kind.HISTORY && t.accept("LIMIT")) {
                limit = (int) number(t, command + " ... LIMIT", true, 0);
            }
            return Optional.of(end(t, command, new StorkStatement(kind, target, limit, null, false, null, null)));
        }
        if (t.peek().is("VACUUM")) {
            t.take();
            DatasetName target = DatasetName.parse(t, "VACUUM");
            Double hours = null;
            if (t.accept("RETAIN")) {
                hours = number(t, "VACUUM ... RETAIN", false, 0);
                if (!t.accept("HOURS") && !t.accept("HOUR")) {
                    throw new IllegalArgumentException("VACUUM: expected HOURS after RETAIN " + hours.longValue() + " "
                            + t.where());
                }
            }
            boolean dryRun = false;
            if (t.accept("DRY")) {
                t.expect("VACUUM", "RUN");
                dryRun = true;
            }
            return Optional.of(end(t, "VACUUM", new StorkStatement(Kind.VACUUM, target, null, hours, dryRun, null,
                    null)));
        }
        if (t.peek().is("RESTORE")) {
            t.take();
            t.accept("TABLE");
            DatasetName target = DatasetName.parse(t, "RESTORE");
            t.accept("TO");
            Long version = null;
            String timestamp = null;
            if (t.accept("VERSION")) {
                t.expect("RESTORE", "AS");
                t.expect("RESTORE", "OF");
                version = (long) number(t, "RESTORE ... VERSION AS OF", true, 1);
            } else if (t.accept("TIMESTAMP")) {
                t.expect("RESTORE", "AS");
                t.expect("RESTORE", "OF");
                if (t.atEnd() || t.peek().kind() != SqlTokens.Kind.STRING) {
                    throw new IllegalArgumentException("RESTORE: TIMESTAMP AS OF takes a quoted time such as "
                            + "'2026-11-23 10:00:00' " + t.where());
                }
                timestamp = t.take().text();
            } else {
                throw new IllegalArgumentException("RESTORE: expected TO VERSION AS OF n or TO TIMESTAMP AS OF 'time' "
                        + t.where());
            }
            return Optional.of(end(t, "RESTORE", new StorkStatement(Kind.RESTORE, target, null, null, false, version,
                    timestamp)));
        }
        return Optional.empty();
    }

    /** A number at least {@code least}; whole unless hours. */
    private static double number(SqlTokens t, String what, boolean whole, long least) {
        String expected = whole ? "a whole number from " + least : "a number of hours, 0 or more";
        if (t.atEnd() || t.peek().kind() != SqlTokens.Kind.NUMBER) {
            throw new IllegalArgumentException(what + " takes " + expected + " " + t.where());
        }
        String text = t.take().text();
        double value;
        try {
            value = whole ? Long.parseLong(text) : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " takes " + expected + ", not " + text);
        }
        if (value < least) {
            throw new IllegalArgumentException(what + " takes " + expected + ", not " + text);
        }
        return value;
    }

    private static StorkStatement end(SqlTokens t, String command, StorkStatement statement) {
        if (!t.atEnd()) {
            throw new IllegalArgumentException(command + ": unexpected '" + t.peek() + "' after the dataset's "
                    + "clauses");
        }
        return statement;
    }

    /** Runs the command: its rows. */
    Dataset<Row> run(SparkSession spark) {
        StorkDataset dataset = target.resolve(spark);
        return switch (kind) {
            case HISTORY -> limit == null ? dataset.history() : dataset.history().limit(limit);
            case DETAIL -> dataset.detail();
            case VACUUM -> dataset.vacuum(retainHours, dryRun);
            case RESTORE -> version != null ? dataset.restore(version) : dataset.restoreToTimestamp(timestamp);
        };
    }

    /**
     * A dataset as a statement names it: a path (with the data source it is read as, if named) or a table.
     *
     * @param path   a {@code stork://} URI, or null for a table
     * @param format the data source name before the path ({@code parquet}; {@code stork}: any), or null
     * @param table  the table's name parts, or empty for a path
     */
    record DatasetName(String path, String format, List<String> table) {

        static DatasetName parse(SqlTokens t, String command) {
            if (t.atEnd()) {
                throw new IllegalArgumentException(command + ": expected a dataset (stork.`stork://bucket/path` or a "
                        + "table name) at the end of the statement");
            }
            if (t.peek().kind() == SqlTokens.Kind.STRING) {
                return new DatasetName(t.take().text(), null, List.of());
            }
            List<String> parts = new ArrayList<>();
            while (true) {
                SqlTokens.Token token = t.atEnd() ? null : t.peek();
                if (token == null || token.kind() != SqlTokens.Kind.WORD && token.kind() != SqlTokens.Kind.QUOTED) {
                    throw new IllegalArgumentException(command + ": expected a dataset (stork.`stork://bucket/path` "
                            + "or a table name) " + t.where());
                }
                parts.add(t.take().text());
                if (t.atEnd() || !t.peek().isSymbol('.')) {
                    break;
                }
                t.take();
            }
            String last = parts.get(parts.size() - 1);
            if (last.contains("://")) {
                if (parts.size() > 2) {
                    throw new IllegalArgumentException(command + ": a path is named as <format>.`" + last + "`, not "
                            + String.join(".", parts));
                }
                return new DatasetName(last, parts.size() == 2 ? parts.get(0) : null, List.of());
            }
            return new DatasetName(null, null, List.copyOf(parts));
        }

        /**
         * Whether the statement is Stork's to run. Not when it names another table format's data (a
         * {@code delta.`…`} path, a bare quoted path that is not {@code stork://}, as Delta Lake writes
         * {@code DESCRIBE HISTORY '/data/t'}, or a catalog table whose provider is such a format): then it goes
         * on to the next parser, so that Delta Lake's {@code DESCRIBE HISTORY}, {@code VACUUM} and {@code RESTORE}
         * keep working in a session with both extensions. Anything else is Stork's, wrong names included: they
         * get Stork's one-line error rather than Spark's reading of {@code DESCRIBE HISTORY x} as a column.
         */
        boolean isStorks(SparkSession spark) {
            if (path != null) {
                return format != null ? !StorkRelations.isOtherTableFormat(format) : StorkRelations.isStorkPath(path);
            }
            org.apache.spark.sql.catalyst.TableIdentifier id = identifier();
            if (id == null || !spark.sessionState().catalog().tableExists(id)) {
                return true;
            }
            org.apache.spark.sql.catalyst.catalog.CatalogTable metadata;
            try {
                metadata = spark.sessionState().catalog().getTableMetadata(id);
            } catch (Exception e) { // NoSuchTableException, NoSuchNamespaceException: checked in Scala, not declared
                return true; // gone since: Stork's one-line error
            }
            String provider = metadata.provider().isDefined() ? metadata.provider().get() : "";
            return !StorkRelations.isOtherTableFormat(provider);
        }

        /** The session catalog's identifier of the table, or null when the name is another catalog's. */
        private org.apache.spark.sql.catalyst.TableIdentifier identifier() {
            if (table.size() > 3 || table.size() == 3 && !table.get(0).equalsIgnoreCase("spark_catalog")) {
                return null;
            }
            String name = table.get(table.size() - 1);
            scala.Option<String> database = table.size() > 1 ? scala.Option.apply(table.get(table.size() - 2))
                    : scala.Option.empty();
            return new org.apache.spark.sql.catalyst.TableIdentifier(name, database);
        }

        /** The dataset: at the path, or behind the session catalog's table; one line when it is not Stork's. */
        StorkDataset resolve(SparkSession spark) {
            if (path != null) {
                return StorkDataset.forPath(spark, path, format);
            }
            org.apache.spark.sql.catalyst.TableIdentifier id = identifier();
            if (id == null) {
                throw new IllegalArgumentException("only the session catalog's tables are known to Stork's commands, "
                        + "not " + String.join(".", table));
            }
            return StorkDataset.forTable(spark, id);
        }
    }
}
