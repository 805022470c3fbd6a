package io.stork.spark.read;

import io.stork.hadoop.StorkFileSystem;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.AnalysisContext;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.catalog.CatalogTableType;
import org.apache.spark.sql.catalyst.catalog.CatalogUtils$;
import org.apache.spark.sql.catalyst.catalog.SessionCatalog;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias$;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap$;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils$;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation$;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A catalog table whose location is a Stork dataset ({@code CREATE TABLE t USING parquet LOCATION 'stork://..'},
 * {@code saveAsTable} with a Stork path) read as its path is read: through the manifest file index, with the
 * table's schema and partition columns, so that the manifest's snapshot and data skipping apply and nothing is
 * listed (docs/manifest-file-index.md, "Catalog tables"). What Spark's FindDataSourceTable would build, minus
 * its listing: the same relation over the same location and options, tagged with the table.
 *
 * <p>Only the session catalog's data-source tables (not Hive SerDe tables, views, bucketed tables or schemas with
 * CHAR/VARCHAR, which Spark reads with padding rules of its own), and only outside a view's body, whose names
 * resolve in the view's namespace.
 */
final class CatalogTableRead {

    private static final String SESSION_CATALOG = CatalogManager.SESSION_CATALOG_NAME();

    private CatalogTableRead() {
    }

    /** The relation over the manifest for the table {@code relation} names, or null to leave it to Spark. */
    static LogicalPlan resolve(SparkSession session, ManifestRelationRule rule, UnresolvedRelation relation) {
        List<String> name = new ArrayList<>(CollectionConverters.asJava(relation.multipartIdentifier()));
        if (relation.isStreaming() || name.isEmpty() || name.size() > 3
                || !AnalysisContext.get().catalogAndNamespace().isEmpty()) {
            return null;
        }
        SessionCatalog catalog = session.sessionState().catalog();
        if (catalog.isTempView(relation.multipartIdentifier())) {
            return null; // a temporary view of that name comes first
        }
        if (name.size() == 3) {
            if (!name.get(0).equalsIgnoreCase(SESSION_CATALOG)) {
                return null;
            }
            name.remove(0);
        } else if (!session.sessionState().catalogManager().currentCatalog().name().equals(SESSION_CATALOG)) {
            return null;
        }
        TableIdentifier ident = name.size() == 1 ? new TableIdentifier(name.get(0))
                : new TableIdentifier(name.get(1), Option.apply(name.get(0)));
        ident = catalog.qualifyIdentifier(ident);
        if (!catalog.tableExists(ident)) {
            return null;
        }
        CatalogTable table;
        try {
            table = catalog.getTableMetadata(ident);
        } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException
                 | org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException e) {
            return null;
        }
        if (table.tableType().equals(CatalogTableType.VIEW()) || table.provider().isEmpty()
                || "hive".equalsIgnoreCase(table.provider().get()) || table.bucketSpec().isDefined()
                || table.storage().locationUri().isEmpty()
                || CharVarcharUtils$.MODULE$.hasCharVarchar(table.schema())) {
            return null;
        }
        String location = CatalogUtils$.MODULE$.URIToString(table.location());
        if (!location.startsWith(StorkFileSystem.SCHEME + "://")) {
            return null;
        }
        // As FindDataSourceTable: the table's storage properties, and its location as the path.
        CaseInsensitiveMap<String> options = CaseInsensitiveMap$.MODULE$.apply(table.storage().properties()
                .$plus(new Tuple2<>("path", location)));
        LogicalPlan read = rule.read(table.provider().get(), table.schema().isEmpty() ? Option.empty()
                : Option.apply(table.schema()), options, options, location, false);
        if (!(read instanceof LogicalRelation plain)) {
            return null;
        }
        LogicalRelation tagged = LogicalRelation$.MODULE$.apply(plain.relation(), table);
        List<String> qualified = List.of(SESSION_CATALOG, table.identifier().database().get(),
                table.identifier().table());
        return SubqueryAlias$.MODULE$.apply(CollectionConverters.asScala(qualified).toList(), tagged);
    }
}
