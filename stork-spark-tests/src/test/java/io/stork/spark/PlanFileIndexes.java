package io.stork.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.spark.skipping.SkippingFileIndex;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.datasources.FileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;

/** The file index a DataFrame's one file relation reads through (under data skipping's wrapper, if any). */
public final class PlanFileIndexes {

    private PlanFileIndexes() {
    }

    public static FileIndex of(Dataset<Row> df) {
        List<FileIndex> found = new ArrayList<>();
        df.queryExecution().analyzed().foreach(node -> {
            if (node instanceof LogicalRelation r && r.relation() instanceof HadoopFsRelation files) {
                found.add(files.location() instanceof SkippingFileIndex s ? s.delegate() : files.location());
            }
            return null;
        });
        assertThat(found).hasSize(1);
        return found.get(0);
    }
}
