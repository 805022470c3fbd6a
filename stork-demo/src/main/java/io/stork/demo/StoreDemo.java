package io.stork.demo;

import io.stork.store.ByteRange;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreFactory;
import io.stork.store.StatisticsSnapshot;
import io.stork.store.StoreApi;
import io.stork.store.StoreIterator;
import io.stork.store.UploadStream;
import io.stork.store.s3.S3StoreConfig;
import io.stork.store.swift.SwiftStoreConfig;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The README's main job, for now: against the local store, write, list, read and delete objects through
 * both APIs with Stork's clients, and print the REST calls each step made, counted by the client and at
 * the store's access log.
 */
public final class StoreDemo {

    private static final int MIB = 1024 * 1024;

    private StoreDemo() {
    }

    public static void main(String[] args) throws IOException {
        LocalStore local = LocalStore.shared();
        AccessLog log = local.accessLog();
        System.out.println("Stork demo: the object-store client layer against a real Swift store on loopback");
        System.out.println("  S3 API:    " + local.s3Endpoint() + "   Swift API: " + local.swiftAuthUrl());
        System.out.println();

        String bucket = "stork-demo-" + UUID.randomUUID().toString().substring(0, 8);
        try (ObjectStore s3 = StoreFactory.open(S3StoreConfig.of(local.s3Endpoint(), local.s3Region(),
                     local.s3AccessKey(), local.s3SecretKey()).withPartSize(5 * MIB, 2), RetryPolicy.DEFAULT);
             ObjectStore swift = StoreFactory.open(SwiftStoreConfig.of(local.swiftAuthUrl(), local.swiftUser(),
                     local.swiftKey()), RetryPolicy.DEFAULT)) {
            Steps steps = new Steps(log);
            steps.run("create bucket " + bucket, s3, () -> s3.createBucket(bucket));
            for (ObjectStore store : List.of(s3, swift)) {
                String api = store.description().api().id().toUpperCase(java.util.Locale.ROOT);
                String dir = api.toLowerCase() + "/";
                steps.run("put 1 KiB object", store, () -> store.put(ObjectKey.of(bucket, dir + "small.txt"),
                        PutBody.of("hello from Stork\n".repeat(60).getBytes(StandardCharsets.UTF_8)),
                        PutOptions.defaults().withUserMetadata(Map.of("writer", api))));
                steps.run("stream 12 MiB of unknown length", store, () -> {
                    try (UploadStream out = store.create(ObjectKey.of(bucket, dir + "streamed.bin"), PutOptions.defaults())) {
                        byte[] block = new byte[MIB];
                        for (int i = 0; i < 12; i++) {
                            out.write(block);
                        }
                    }
                });
                steps.run("list " + dir, store, () -> {
                    List<String> names = new ArrayList<>();
                    try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, dir))) {
                        while (it.hasNext()) {
                            names.add(it.next().name());
                        }
                    }
                    System.out.println("      listed " + names);
                });
                steps.run("get whole object (no HEAD)", store, () -> {
                    try (ObjectStream in = store.get(ObjectKey.of(bucket, dir + "small.txt"), ByteRange.all())) {
                        System.out.println("      " + in.readAllBytes().length + " bytes, etag " + in.info().etag()
                                + ", metadata " + in.info().userMetadata());
                    }
                });
                steps.run("get bytes 5 MiB..5 MiB+16", store, () -> {
                    try (ObjectStream in = store.get(ObjectKey.of(bucket, dir + "streamed.bin"), ByteRange.of(5L * MIB, 16))) {
                        System.out.println("      " + in.readAllBytes().length + " bytes of an object of "
                                + in.info().length());
                    }
                });
                steps.run("server-side copy", store, () -> store.copy(ObjectKey.of(bucket, dir + "small.txt"),
                        ObjectKey.of(bucket, dir + "copy.txt")));
            }
            steps.run("read an S3-written object through Swift", swift, () -> {
                try (ObjectStream in = swift.get(ObjectKey.of(bucket, "s3/small.txt"), ByteRange.all())) {
                    System.out.println("      " + in.readAllBytes().length + " bytes, metadata " + in.info().userMetadata());
                }
            });
            steps.run("bulk delete everything", s3, () -> {
                List<String> keys = new ArrayList<>();
                try (StoreIterator<ListEntry> it = s3.list(ListRequest.of(bucket, ""))) {
                    while (it.hasNext()) {
                        keys.add(it.next().name());
                    }
                }
                System.out.println("      deleted " + s3.deleteAll(bucket, keys).deleted() + " objects");
            });
            steps.run("delete bucket", swift, () -> swift.deleteBucket(bucket));
            System.out.println();
            System.out.println(steps.agreed ? "Client counters and the store's access log agree on every step."
                    : "MISMATCH: the client's counters and the store's access log disagree (see above).");
            if (!steps.agreed) {
                System.exit(1);
            }
        }
    }

    private static final class Steps {
        private final AccessLog log;
        private boolean agreed = true;

        Steps(AccessLog log) {
            this.log = log;
        }

        interface Action {
            void run() throws IOException;
        }

        void run(String title, ObjectStore store, Action action) throws IOException {
            StatisticsSnapshot before = store.statistics().snapshot();
            AccessLog.Window window = log.openWindow();
            System.out.printf("%-6s %s%n", StoreApi.S3.equals(store.description().api()) ? "[S3]" : "[Swift]", title);
            action.run();
            StoreCallCounts atStore = window.counts();
            StatisticsSnapshot byClient = store.statistics().snapshot().minus(before);
            boolean same = atStore.callsByType().equals(byClient.callsByType());
            agreed &= same;
            System.out.printf("      REST calls: client %-45s store log %s%s%n", byClient.callsByType(),
                    atStore.callsByType(), same ? "" : "   <-- differ");
        }
    }
}
