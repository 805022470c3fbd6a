package io.stork.bench.spark;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A TPC-DS-like star schema: the {@code store_sales} fact table with the {@code date_dim}, {@code item} and
 * {@code store} dimensions, generated deterministically from row numbers (Murmur3 hashes), so every scenario
 * writes the same rows; and the queries run over it. Amounts are integer cents: sums are exact, whatever
 * the order in which tasks add them.
 */
final class StarSchema {

    static final String[] TABLES = {"date_dim", "item", "store", "store_sales"};

    /** Scan, filter, aggregate and join queries in the spirit of TPC-DS q3, q43 and q55. */
    static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("scan-filter-aggregate", "SELECT ss_store_sk, count(*) AS sales, sum(ss_net_profit) AS profit "
                + "FROM store_sales WHERE ss_quantity > 80 GROUP BY ss_store_sk");
        QUERIES.put("join-date (q3-like)", "SELECT d_year, sum(ss_sales_price) AS revenue FROM store_sales "
                + "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_moy = 11 GROUP BY d_year");
        QUERIES.put("join-date-item (q55-like)", "SELECT i_brand, sum(ss_sales_price) AS revenue FROM store_sales "
                + "JOIN date_dim ON ss_sold_date_sk = d_date_sk JOIN item ON ss_item_sk = i_item_sk "
                + "WHERE d_year = 2024 AND d_moy = 11 AND i_category = 'Books' "
                + "GROUP BY i_brand ORDER BY revenue DESC, i_brand LIMIT 10");
        QUERIES.put("join-date-store (q43-like)", "SELECT s_state, d_dow, count(*) AS sales, "
                + "sum(ss_sales_price) AS revenue FROM store_sales JOIN store ON ss_store_sk = s_store_sk "
                + "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_dow IN (0, 6) GROUP BY s_state, d_dow");
    }

    private static final int DAYS = 3 * 365;
    private static final int ITEMS = 2000;
    private static final int STORES = 50;

    private StarSchema() {
    }

    static Dataset<Row> table(SparkSession spark, String name, long salesRows, int salesPartitions) {
        switch (name) {
            case "date_dim":
                return spark.range(0, DAYS, 1, 1).selectExpr("CAST(id AS INT) AS d_date_sk",
                        "CAST(2023 + id DIV 365 AS INT) AS d_year",
                        "CAST(least(12, 1 + (id % 365) DIV 31) AS INT) AS d_moy",
                        "CAST(id % 7 AS INT) AS d_dow");
            case "item":
                return spark.range(0, ITEMS, 1, 1).selectExpr("CAST(id AS INT) AS i_item_sk",
                        "concat('brand#', id % 100) AS i_brand",
                        "element_at(array('Books', 'Music', 'Home', 'Sports', 'Electronics'), "
                                + "CAST(id % 5 + 1 AS INT)) AS i_category",
                        "CAST(100 + (id * 37) % 9900 AS BIGINT) AS i_list_price");
            case "store":
                return spark.range(0, STORES, 1, 1).selectExpr("CAST(id AS INT) AS s_store_sk",
                        "concat('store#', id) AS s_store_name",
                        "element_at(array('CA', 'TX', 'NY', 'WA', 'IL'), CAST(id % 5 + 1 AS INT)) AS s_state");
            case "store_sales":
                return spark.range(0, salesRows, 1, salesPartitions).selectExpr(
                        "CAST(pmod(hash(id, 1), " + DAYS + ") AS INT) AS ss_sold_date_sk",
                        "CAST(pmod(hash(id, 2), " + ITEMS + ") AS INT) AS ss_item_sk",
                        "CAST(pmod(hash(id, 3), " + STORES + ") AS INT) AS ss_store_sk",
                        "CAST(pmod(hash(id, 4), 100000) AS INT) AS ss_customer_sk",
                        "CAST(1 + pmod(hash(id, 5), 100) AS INT) AS ss_quantity",
                        "CAST((1 + pmod(hash(id, 5), 100)) * (100 + pmod(hash(id, 6), 5000)) AS BIGINT) "
                                + "AS ss_sales_price",
                        "CAST(pmod(hash(id, 7), 20000) - 5000 AS BIGINT) AS ss_net_profit");
            default:
                throw new IllegalArgumentException("no table " + name);
        }
    }
}
