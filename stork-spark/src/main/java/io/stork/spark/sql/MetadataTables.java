package io.stork.spark.sql;

import io.stork.spark.dataset.StorkDataset;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * Stork's metadata tables, read in a FROM clause as table-valued functions (docs/sql.md#metadata-tables):
 * <pre>
 * SELECT * FROM stork_files('stork://b/t')            -- the current generation's parts
 * SELECT * FROM stork_files('stork://b/t', 3)         -- generation 3's
 * SELECT * FROM stork_changes('stork://b/t', 2[, 5])  -- parts added/removed after generation 2 (up to 5)
 * SELECT * FROM stork_history('db.events')            -- a table on Stork, by name
 * SELECT * FROM stork_detail('stork://b/t')
 * </pre>
 * Each reads the manifest when the statement is parsed (one GET) and is {@link StorkDataset}'s DataFrame.
 */
final class MetadataTables {

    /**
     * The functions' common prefix. Spark's parser refuses a qualified table-valued function name
     * ({@code stork.files(…)}), so the names are one word.
     */
    static final String PREFIX = "stork_";

    private static final String USAGE = "stork_files(t [, generation]), stork_changes(t, from [, to]), "
            + "stork_history(t) or stork_detail(t), where t is 'stork://bucket/path' or a table name";

    private MetadataTables() {
    }

    static LogicalPlan plan(SparkSession session, String name, List<Expression> args) {
        Dataset<Row> rows = switch (name) {
            case "files" -> {
                arity(name, args, 1, 2);
                StorkDataset dataset = dataset(session, name, args);
                yield args.size() == 2 ? dataset.files(generation(name, args.get(1))) : dataset.files();
            }
            case "changes" -> {
                arity(name, args, 2, 3);
                StorkDataset dataset = dataset(session, name, args);
                long from = generation(name, args.get(1));
                yield dataset.changes(from, args.size() == 3 ? generation(name, args.get(2)) : 0);
            }
            case "history" -> {
                arity(name, args, 1, 1);
                yield dataset(session, name, args).history();
            }
            case "detail" -> {
                arity(name, args, 1, 1);
                yield dataset(session, name, args).detail();
            }
            default -> throw new IllegalArgumentException("no Stork metadata table stork_" + name + ": there are "
                    + USAGE);
        };
        return rows.queryExecution().analyzed();
    }

    private static void arity(String name, List<Expression> args, int least, int most) {
        if (args.size() < least || args.size() > most) {
            throw new IllegalArgumentException("stork_" + name + " takes " + (least == most ? least : least + " to "
                    + most) + " arguments, not " + args.size() + ": " + USAGE);
        }
    }

    private static StorkDataset dataset(SparkSession session, String name, List<Expression> args) {
        Object value = literal(args.get(0));
        if (!(value instanceof org.apache.spark.unsafe.types.UTF8String text)) {
            throw new IllegalArgumentException("stork_" + name + " takes the dataset as a string ('stork://bucket/path'"
                    + " or 'db.table'), not " + args.get(0).sql());
        }
        return StorkDataset.forName(session, text.toString());
    }

    private static long generation(String name, Expression arg) {
        Object value = literal(arg);
        if (value instanceof Integer || value instanceof Long) {
            long g = ((Number) value).longValue();
            if (g >= 0) {
                return g;
            }
        }
        throw new IllegalArgumentException("stork_" + name + " takes generations as whole numbers (0, 1, 2, ...), "
                + "not " + arg.sql());
    }

    private static Object literal(Expression arg) {
        return arg.resolved() && arg.foldable() ? arg.eval(null) : null;
    }
}
