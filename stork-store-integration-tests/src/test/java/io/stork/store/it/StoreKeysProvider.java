package io.stork.store.it;

import io.stork.localstore.LocalStore;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/** A credential provider class as a user writes one for {@code s3.credentials.provider}: the local store's keys. */
public final class StoreKeysProvider implements AwsCredentialsProvider {

    static final AtomicInteger CALLS = new AtomicInteger();

    @Override
    public AwsCredentials resolveCredentials() {
        CALLS.incrementAndGet();
        LocalStore store = LocalStore.shared();
        return AwsBasicCredentials.create(store.s3AccessKey(), store.s3SecretKey());
    }
}
