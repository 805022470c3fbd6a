package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.spark.skipping.DataSkipping;
import io.stork.spark.skipping.ScanReport;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What skipping did, asked after the action that ran it: {@code df.count()} plans a query of its own, whose
 * listing once left {@code reports(df)} empty. Four parts of disjoint id ranges; {@code id = 42} reads one.
 */
class SkippingLastReportTest {

    private static final String PATH = "stork://unit-last-report/ids";
    private static SparkSession spark;

    @BeforeAll
    static void write() {
        spark = MemorySpark.session("stork-last-report", Map.of("spark.stork.layout.history.flushInterval", "1h"));
        spark.range(0, 400).repartitionByRange(4, new org.apache.spark.sql.Column("id")).write().parquet(PATH);
    }

    @AfterAll
    static void stop() {
        MemorySpark.stop(spark);
    }

    @Test
    void reportsOfADataFrameCoverTheCountThatRanIt() {
        Dataset<Row> q = spark.read().parquet(PATH).where("id = 42");
        assertThat(q.count()).isEqualTo(1);
        List<ScanReport> reports = DataSkipping.reports(q);
        assertThat(reports).singleElement().satisfies(r -> {
            assertThat(r.objectsListed()).isEqualTo(4);
            assertThat(r.objectsRead()).isEqualTo(1);
        });
        assertThat(DataSkipping.lastQuery(spark)).containsExactlyElementsOf(reports);
    }

    @Test
    void theLastQueryIsTheSessionsNewestWhateverRanIt() {
        spark.sql("SELECT * FROM parquet.`" + PATH + "` WHERE id >= 390").collectAsList();
        assertThat(DataSkipping.lastQuery(spark)).singleElement().satisfies(r -> {
            assertThat(r.objectsRead()).isEqualTo(1);
            assertThat(r.filter()).contains("390");
        });
        // Two scans in one query: the first range's part, and the three from 150 on.
        spark.sql("SELECT id FROM parquet.`" + PATH + "` WHERE id < 10 UNION ALL SELECT id FROM parquet.`" + PATH
                + "` WHERE id >= 150").collectAsList();
        assertThat(DataSkipping.lastQuery(spark)).hasSize(2).extracting(ScanReport::objectsRead)
                .containsExactlyInAnyOrder(1L, 3L);
    }
}
