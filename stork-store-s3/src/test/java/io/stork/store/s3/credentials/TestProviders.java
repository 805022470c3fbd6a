package io.stork.store.s3.credentials;

import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/** Credential provider classes as users write them, and ones that are wrong in each way a message names. */
public final class TestProviders {

    private TestProviders() {
    }

    /** A provider with a no-argument constructor; counts its calls. */
    public static final class Counting implements AwsCredentialsProvider {
        public static final AtomicInteger CALLS = new AtomicInteger();
        public static volatile String accessKey = "counting-id";
        public static volatile String secretKey = "counting-secret";

        @Override
        public AwsCredentials resolveCredentials() {
            CALLS.incrementAndGet();
            return AwsBasicCredentials.create(accessKey, secretKey);
        }
    }

    /** A provider that holds something to free: counts its closes. */
    public static final class Closing implements AwsCredentialsProvider, AutoCloseable {
        public static final AtomicInteger CLOSED = new AtomicInteger();

        @Override
        public AwsCredentials resolveCredentials() {
            return AwsBasicCredentials.create("closing-id", "closing-secret");
        }

        @Override
        public void close() {
            CLOSED.incrementAndGet();
        }
    }

    /** A closeable provider whose create() hands out one instance to all, as DefaultCredentialsProvider.create() does. */
    public static final class Shared implements AwsCredentialsProvider, AutoCloseable {
        public static final Shared INSTANCE = new Shared();
        public static final AtomicInteger CLOSED = new AtomicInteger();

        private Shared() {
        }

        public static Shared create() {
            return INSTANCE;
        }

        @Override
        public AwsCredentials resolveCredentials() {
            return AwsBasicCredentials.create("shared-id", "shared-secret");
        }

        @Override
        public void close() {
            CLOSED.incrementAndGet();
        }
    }

    /** A provider made by a static create(), as the SDK's own are. */
    public static final class ByFactory implements AwsCredentialsProvider {
        private ByFactory() {
        }

        public static ByFactory create() {
            return new ByFactory();
        }

        @Override
        public AwsCredentials resolveCredentials() {
            return AwsBasicCredentials.create("factory-id", "factory-secret");
        }
    }

    /** A provider that has none: the chain goes on to the next. */
    public static final class Empty implements AwsCredentialsProvider {
        @Override
        public AwsCredentials resolveCredentials() {
            throw software.amazon.awssdk.core.exception.SdkClientException.create("Empty has nothing");
        }
    }

    /** The interface's shape without the interface: what a class compiled against another copy of the SDK looks like. */
    public static final class Shaped {
        public Result resolveCredentials() {
            return new Result();
        }

        public static final class Result {
            public String accessKeyId() {
                return "shaped-id";
            }

            public String secretAccessKey() {
                return "shaped-secret";
            }

            public String sessionToken() {
                return "shaped-token";
            }
        }
    }

    public static final class Failing implements AwsCredentialsProvider {
        public Failing() {
            throw new IllegalStateException("no role configured");
        }

        @Override
        public AwsCredentials resolveCredentials() {
            return null;
        }
    }

    public static final class NoConstructor implements AwsCredentialsProvider {
        public NoConstructor(String unused) {
        }

        @Override
        public AwsCredentials resolveCredentials() {
            return null;
        }
    }
}
