package io.stork.spark.sql;

import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParameterContext;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Stork's SQL (docs/sql.md), in front of the session's parser: its commands ({@link StorkStatement}:
 * {@code DESCRIBE HISTORY}, {@code DESCRIBE DETAIL}, {@code VACUUM}, {@code RESTORE}) are recognised here;
 * every other statement goes to the wrapped parser, and its plan then has Stork's reads resolved
 * ({@link StorkRelations}: {@code VERSION AS OF} / {@code TIMESTAMP AS OF} on Stork datasets, the
 * {@code stork_files(…)} metadata tables, {@code stork.`stork://…`}). A command runs when it is parsed, as
 * {@code spark.sql} runs commands at once; its plan is the rows it returned.
 */
public final class StorkSqlParser implements ParserInterface {

    private final SparkSession session;
    private final ParserInterface delegate;

    public StorkSqlParser(SparkSession session, ParserInterface delegate) {
        this.session = session;
        this.delegate = delegate;
    }

    @Override
    public LogicalPlan parsePlan(String sqlText) throws ParseException {
        Optional<LogicalPlan> ours = command(sqlText);
        return ours.isPresent() ? ours.get() : StorkRelations.resolve(session, delegate.parsePlan(sqlText));
    }

    @Override
    public LogicalPlan parsePlanWithParameters(String sqlText, ParameterContext parameters) throws ParseException {
        Optional<LogicalPlan> ours = command(sqlText);
        return ours.isPresent() ? ours.get()
                : StorkRelations.resolve(session, delegate.parsePlanWithParameters(sqlText, parameters));
    }

    /** Stork's command, run; empty when the statement is not one, or names data that is not Stork's. */
    private Optional<LogicalPlan> command(String sqlText) {
        return StorkStatement.parse(sqlText).filter(s -> s.target().isStorks(session))
                .map(s -> s.run(session).queryExecution().analyzed());
    }

    @Override
    public LogicalPlan parseQuery(String sqlText) throws ParseException {
        return StorkRelations.resolve(session, delegate.parseQuery(sqlText));
    }

    @Override
    public Expression parseExpression(String sqlText) throws ParseException {
        return delegate.parseExpression(sqlText);
    }

    @Override
    public TableIdentifier parseTableIdentifier(String sqlText) throws ParseException {
        return delegate.parseTableIdentifier(sqlText);
    }

    @Override
    public FunctionIdentifier parseFunctionIdentifier(String sqlText) throws ParseException {
        return delegate.parseFunctionIdentifier(sqlText);
    }

    @Override
    public Seq<String> parseMultipartIdentifier(String sqlText) throws ParseException {
        return delegate.parseMultipartIdentifier(sqlText);
    }

    @Override
    public StructType parseRoutineParam(String sqlText) throws ParseException {
        return delegate.parseRoutineParam(sqlText);
    }

    @Override
    public StructType parseTableSchema(String sqlText) throws ParseException {
        return delegate.parseTableSchema(sqlText);
    }

    @Override
    public DataType parseDataType(String sqlText) throws ParseException {
        return delegate.parseDataType(sqlText);
    }
}
