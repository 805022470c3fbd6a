package io.stork.store.it;

import io.stork.store.ByteRange;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.s3.S3StoreConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A JVM of its own for credentials that come from environment variables (a running JVM cannot set its
 * own): opens an S3 client without keys at the endpoint given, writes and reads back one object, prints
 * {@code OK} (or the one-line failure and exits 1).
 */
public final class CredentialsChild {

    private CredentialsChild() {
    }

    public static void main(String[] args) {
        URI endpoint = URI.create(args[0]);
        ObjectKey key = ObjectKey.of(args[1], args[2]);
        try (ObjectStore store = new S3ObjectStore(S3StoreConfig.of(endpoint, "us-east-1", null, null))) {
            store.put(key, PutBody.of(key.key().getBytes(StandardCharsets.UTF_8)), PutOptions.defaults());
            try (var in = store.get(key, ByteRange.all())) {
                if (!new String(in.readAllBytes(), StandardCharsets.UTF_8).equals(key.key())) {
                    throw new AssertionError("read back other bytes");
                }
            }
            System.out.println("OK");
        } catch (Exception | AssertionError e) {
            System.out.println("FAILED " + e);
            System.exit(1);
        }
    }
}
