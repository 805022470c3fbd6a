package io.stork.store.it;

import static io.stork.store.it.CountedRoundTrip.counted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stork.localstore.AccessLogEntry;
import io.stork.localstore.LocalVirtualHosts;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreException;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.s3.S3StoreConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * S3 addressing and signing region against the local store. Virtual-hosted style: s3api has a storage
 * domain (stork.localhost) and the bucket's host name resolves to the store through /etc/hosts lines the
 * store script writes for fixed bucket names (scripts/local-store.sh start --vhost); the access log
 * records each request's Host header, so the test sees where the bucket was named. Region: s3api checks
 * the region in the signature's scope against its own (us-east-1) and rejects others.
 */
class VirtualHostedIT {

    private static LocalVirtualHosts hosts() {
        return TestStores.local().virtualHosts();
    }

    @Test
    void writeReadListDeleteHostStyleAndTheStoreSeesTheBucketInTheHostName() throws IOException {
        String bucket = hosts().buckets().get(0);
        S3StoreConfig plain = TestStores.s3Config();
        S3StoreConfig config = S3StoreConfig.of(hosts().endpoint(), plain.region(), plain.accessKey(), plain.secretKey())
                .withPathStyleAccess(false);
        String prefix = "run-" + UUID.randomUUID().toString().substring(0, 8) + "/";
        ObjectKey key = ObjectKey.of(bucket, prefix + "hosted.txt");
        byte[] data = "virtual-hosted".getBytes(StandardCharsets.UTF_8);
        List<AccessLogEntry> all = new ArrayList<>();
        try (ObjectStore store = new S3ObjectStore(config)) {
            // The bucket's name is fixed (only fixed names resolve): it may exist from an earlier run.
            counted(store, all, () -> store.createBucket(bucket));
            CountedRoundTrip.putGetListDelete(store, all, key, data, prefix);
        }
        assertThat(all).isNotEmpty().allSatisfy(e -> {
            assertThat(e.virtualHostBucket()).as(e.method() + " " + e.path()).isEqualTo(bucket);
            assertThat(e.headers()).contains("Host: " + bucket + "." + hosts().storageDomain() + ":");
        });
    }

    @Test
    void pathStyleRequestsToTheSameStoreNameTheBucketInThePath() throws IOException {
        String bucket = TestStores.uniqueBucket("pathstyle");
        List<AccessLogEntry> all = new ArrayList<>();
        try (ObjectStore store = new S3ObjectStore(TestStores.s3Config())) {
            counted(store, all, () -> store.createBucket(bucket));
            counted(store, all, () -> store.deleteBucket(bucket));
        }
        assertThat(all).hasSize(2).allSatisfy(e -> {
            assertThat(e.virtualHostBucket()).isNull();
            assertThat(e.path()).isEqualTo("/" + bucket);
        });
    }

    @Test
    void theConfiguredRegionIsTheOneSignedForAndAWrongOneIsExplained() throws IOException {
        String bucket = TestStores.uniqueBucket("region");
        try (ObjectStore right = new S3ObjectStore(TestStores.s3Config().withRegion("us-east-1"));
             ObjectStore wrong = new S3ObjectStore(TestStores.s3Config().withRegion("eu-west-1"))) {
            right.createBucket(bucket);
            Throwable e = catchThrowable(() -> wrong.head(ObjectKey.of(bucket, "any")));
            assertThat(e).isInstanceOf(StoreException.class);
            // HEAD carries no error body: the region shows on a call with one.
            Throwable put = catchThrowable(() -> wrong.put(ObjectKey.of(bucket, "x"), PutBody.of(new byte[1]),
                    PutOptions.defaults()));
            assertThat(put.getMessage()).doesNotContain("\n").contains("AuthorizationHeaderMalformed")
                    .contains("the region 'eu-west-1' is wrong; expecting 'us-east-1'")
                    .contains("set fs.stork.region (or fs.stork.bucket." + bucket + ".region) to the store's region");
            right.deleteBucket(bucket);
        }
    }
}
