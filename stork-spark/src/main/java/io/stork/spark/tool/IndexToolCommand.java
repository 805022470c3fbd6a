package io.stork.spark.tool;

import io.stork.commit.DatasetToolCommand;
import io.stork.spark.skipping.IndexCommand;
import java.io.IOException;
import java.util.Map;

/** The dataset tool's {@code index}: statistics for objects Stork did not write ({@link IndexCommand}). */
public final class IndexToolCommand implements DatasetToolCommand {

    @Override
    public String name() {
        return "index";
    }

    @Override
    public String starting(String[] args) {
        return String.format("indexing %s as %s (a Spark job)", args[0], args.length > 1 ? args[1] : "?");
    }

    @Override
    public String run(String[] args, Map<String, String> hadoopSettings) throws IOException {
        return IndexCommand.runForTool(args, hadoopSettings);
    }
}
