package io.stork.demo;

/** The README's main job: the client layer's calls, then a Spark job through Stork next to S3A. */
public final class Demo {

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        StoreDemo.main(args);
        System.out.println();
        CommitDemo.main(args);
    }
}
