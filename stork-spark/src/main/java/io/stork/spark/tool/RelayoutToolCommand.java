package io.stork.spark.tool;

import io.stork.commit.DatasetToolCommand;
import io.stork.spark.layout.RelayoutCommand;
import java.io.IOException;
import java.util.Map;

/** The dataset tool's {@code relayout}: the current generation rewritten into a new layout ({@link RelayoutCommand}). */
public final class RelayoutToolCommand implements DatasetToolCommand {

    @Override
    public String name() {
        return "relayout";
    }

    @Override
    public String starting(String[] args) {
        return String.format("relaying out %s (Spark jobs: a sample, then the rewrite)", args[0]);
    }

    @Override
    public String run(String[] args, Map<String, String> hadoopSettings) throws IOException {
        return RelayoutCommand.runForTool(args, hadoopSettings);
    }
}
