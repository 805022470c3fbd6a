package io.stork.demo;

/**
 * The README's main job: the client layer's calls, a Spark job through Stork next to S3A, then a short
 * connector benchmark (Stork against S3A's magic committer).
 */
public final class Demo {

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        StoreDemo.main(args);
        System.out.println();
        CommitDemo.main(args);
        System.out.println();
        BenchmarkDemo.main(args);
    }
}
