package io.stork.commit;

import java.io.IOException;
import java.util.Map;

/**
 * A dataset tool command that lives above this module: the Spark jobs ({@code index}, {@code relayout}) are
 * implemented in Stork's Spark module and registered in its {@code META-INF/services}, so the tool finds
 * them when that module is on the class path (the runtime jar, under spark-submit) and the Java-only tools
 * jar, which has no Spark, says in one line where to run them. The tool never names a class above it.
 */
public interface DatasetToolCommand {

    /** The command's name on the tool's command line. */
    String name();

    /** The line the tool prints (standard error) as the command starts; {@code args[0]} is the dataset. */
    String starting(String[] args);

    /**
     * Runs the command: {@code args} are the dataset then its operands; {@code hadoopSettings} the tool's
     * {@code -D} settings. Returns the summary line to print. A bad command line is an
     * IllegalArgumentException with one line; a store's failure an IOException.
     */
    String run(String[] args, Map<String, String> hadoopSettings) throws IOException;
}
