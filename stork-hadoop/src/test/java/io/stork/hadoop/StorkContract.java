package io.stork.hadoop;

import io.stork.store.StoreApi;
import io.stork.localstore.LocalStore;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's FileSystem contract, bound to the Stork FileSystem on the local store through one API. */
public class StorkContract extends AbstractFSContract {

    private final StoreApi api;
    private final boolean cached;
    private FileSystem fs;

    public StorkContract(Configuration conf, StoreApi api) {
        this(conf, api, false);
    }

    /**
     * @param cached with the block cache on (its own bucket, so that Hadoop's file system cache does not
     *               hand the tests without it the same instance), in 4 KiB blocks so reads cross them
     */
    public StorkContract(Configuration conf, StoreApi api, boolean cached) {
        super(conf);
        this.api = api;
        this.cached = cached;
        addConfResource("contract/stork.xml");
    }

    /** The bucket each API's contract tests use (objects are shared between the APIs, buckets are not). */
    static String bucket(StoreApi api) {
        return "stork-contract-" + api.id();
    }

    /** Points the configuration's bucket at the local store through the given API. */
    static void configure(Configuration conf, String bucket, StoreApi api) {
        LocalStore local = LocalStore.shared();
        String prefix = "fs.stork.bucket." + bucket + ".";
        conf.set(prefix + "api", api.id());
        conf.set(prefix + "endpoint", local.s3Endpoint().toString());
        conf.set(prefix + "access.key", local.s3AccessKey());
        conf.set(prefix + "access.secret", local.s3SecretKey());
        conf.set(prefix + "swift.auth.url", local.swiftAuthUrl().toString());
        conf.set(prefix + "swift.user", local.swiftUser());
        conf.set(prefix + "swift.password", local.swiftKey());
        conf.set(prefix + "retry.interval", "20ms");
    }

    @Override
    public void init() throws IOException {
        super.init();
        String bucket = bucket(api) + (cached ? "-cached" : "");
        configure(getConf(), bucket, api);
        if (cached) {
            String prefix = "fs.stork.bucket." + bucket + ".";
            getConf().setBoolean(prefix + "cache.enabled", true);
            getConf().set(prefix + "cache.directory",
                    java.nio.file.Files.createTempDirectory("stork-contract-cache").toString());
            getConf().set(prefix + "cache.block.size", "4096");
        }
        fs = FileSystem.get(URI.create("stork://" + bucket + "/"), getConf());
        ((StorkFileSystem) fs).store().createBucket(bucket);
    }

    @Override
    public FileSystem getTestFileSystem() {
        return fs;
    }

    @Override
    public org.apache.hadoop.fs.Path getTestPath() {
        return new org.apache.hadoop.fs.Path("/test");
    }

    @Override
    public String getScheme() {
        return StorkFileSystem.SCHEME;
    }
}
