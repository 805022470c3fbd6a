package io.stork.commit;

/** The dataset tool's entry point for tests in other packages, as its command line runs it. */
public final class DatasetToolAccess {

    private DatasetToolAccess() {
    }

    public static int run(String... args) throws java.io.IOException {
        return DatasetTool.run(args);
    }
}
