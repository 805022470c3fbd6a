package io.stork.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import io.stork.localstore.AccessLog;
import io.stork.localstore.LocalStore;
import io.stork.localstore.StoreCallCounts;
import io.stork.store.AuthenticationException;
import io.stork.store.ByteRange;
import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectStore;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.s3.S3ObjectStore;
import io.stork.store.s3.S3StoreConfig;
import io.stork.store.s3.credentials.CredentialOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S3 credentials through the AWS SDK's own providers, against the real local store: container
 * credentials and instance metadata (IMDSv2) served by a loopback {@link CredentialsEndpoint}, a named
 * profile, environment variables (in a child JVM), a provider class, explicit keys with a session token.
 * Each client writes and reads through the store, and the calls are counted at the store's access log.
 *
 * <p>The SDK reads its settings from system properties as well as the environment; tests in this JVM set the
 * properties (and clear them after), with the profile files pointed at an empty file so that nothing on the
 * build machine answers instead.
 */
class S3CredentialsIT {

    private static final List<String> SDK_PROPERTIES = List.of("aws.containerCredentialsFullUri",
            "aws.ec2MetadataServiceEndpoint", "aws.disableEc2Metadata", "aws.sharedCredentialsFile", "aws.configFile",
            "aws.webIdentityTokenFile", "aws.roleArn", "aws.roleSessionName", "aws.endpointUrlSts", "aws.region");
    private static final String TOKEN = "session-token-the-store-is-sent";

    @TempDir
    Path dir;
    private final LocalStore local = LocalStore.shared();

    @BeforeEach
    void nothingOnTheMachineAnswers() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty-profile"), "");
        System.setProperty("aws.sharedCredentialsFile", empty.toString());
        System.setProperty("aws.configFile", empty.toString());
    }

    @AfterEach
    void clearSdkSettings() {
        SDK_PROPERTIES.forEach(System::clearProperty);
    }

    private static ObjectStore withoutKeys(CredentialOptions options) {
        return new S3ObjectStore(TestStores.s3Config().withCredentials(null, null).withCredentialOptions(options));
    }

    /** A bucket made, an object written and read, with the calls each cost at the store. */
    private static void writeAndRead(ObjectStore store, String purpose) throws IOException {
        String bucket = TestStores.uniqueBucket(purpose);
        ObjectKey key = ObjectKey.of(bucket, "creds/object");
        assertThat(CallCountIT.measured(store, () -> store.createBucket(bucket)).byType())
                .isEqualTo(Map.of(CallType.BUCKET_CREATE, 1L));
        assertThat(CallCountIT.measured(store, () -> store.put(key, PutBody.of(new byte[] {1, 2, 3}),
                PutOptions.defaults())).byType()).isEqualTo(Map.of(CallType.PUT, 1L));
        assertThat(CallCountIT.measured(store, () -> {
            try (var in = store.get(key, ByteRange.all())) {
                assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
            }
        }).byType()).isEqualTo(Map.of(CallType.GET, 1L));
    }

    @Test
    void containerCredentialsFromTheSdksContainerProvider() throws IOException {
        try (CredentialsEndpoint creds = new CredentialsEndpoint(local.s3AccessKey(), local.s3SecretKey(), TOKEN)) {
            System.setProperty("aws.containerCredentialsFullUri", creds.containerUri().toString());
            System.setProperty("aws.disableEc2Metadata", "true");
            try (ObjectStore store = withoutKeys(CredentialOptions.NONE)) {
                writeAndRead(store, "container");
            }
            // Fetched once, then cached until shortly before its expiration (six hours ahead).
            assertThat(creds.requests()).extracting(CredentialsEndpoint.Request::line)
                    .containsExactly("GET /container/credentials");
        }
    }

    @Test
    void instanceMetadataV2FromTheSdksInstanceProfileProvider() throws IOException {
        try (CredentialsEndpoint creds = new CredentialsEndpoint(local.s3AccessKey(), local.s3SecretKey(), TOKEN)) {
            System.setProperty("aws.ec2MetadataServiceEndpoint", creds.endpoint().toString());
            try (ObjectStore store = withoutKeys(CredentialOptions.NONE)) {
                writeAndRead(store, "imds");
            }
            assertThat(creds.hits("PUT /latest/api/token")).isGreaterThanOrEqualTo(1);
            assertThat(creds.hits("GET /latest/meta-data/iam/security-credentials/")).isEqualTo(1);
            assertThat(creds.hits("GET /latest/meta-data/iam/security-credentials/" + CredentialsEndpoint.ROLE))
                    .isEqualTo(1);
            // IMDSv2: every metadata read carried the session token the PUT handed out.
            assertThat(creds.requests()).filteredOn(r -> r.path().startsWith("/latest/meta-data/"))
                    .allSatisfy(r -> assertThat(r.imdsToken()).isNotNull());
        }
    }

    @Test
    void aWebIdentityTokenFileExchangedAtStsForKeys() throws IOException {
        // EKS IRSA: a token file and a role; the SDK's web identity provider (in the sts module) asks STS,
        // here the loopback endpoint through the SDK's own STS endpoint setting, for temporary keys.
        try (CredentialsEndpoint creds = new CredentialsEndpoint(local.s3AccessKey(), local.s3SecretKey(), TOKEN)) {
            Path tokenFile = Files.writeString(dir.resolve("web-identity-token"), "eyJ.stork-it-token.sig");
            System.setProperty("aws.webIdentityTokenFile", tokenFile.toString());
            System.setProperty("aws.roleArn", "arn:aws:iam::123456789012:role/stork-it");
            System.setProperty("aws.roleSessionName", "stork-it");
            System.setProperty("aws.endpointUrlSts", creds.endpoint().toString());
            System.setProperty("aws.region", "us-east-1");
            System.setProperty("aws.disableEc2Metadata", "true");
            try (ObjectStore store = withoutKeys(CredentialOptions.NONE)) {
                writeAndRead(store, "webidentity");
            }
            assertThat(creds.webIdentityTokens()).containsExactly("eyJ.stork-it-token.sig");
            assertThat(creds.requests()).extracting(CredentialsEndpoint.Request::line).containsExactly("POST /");
        }
    }

    @Test
    void aNamedProfileOfTheProfileFile() throws IOException {
        Path file = Files.writeString(dir.resolve("credentials"), "[default]\naws_access_key_id = wrong\n"
                + "aws_secret_access_key = wrong\n[stork-it]\naws_access_key_id = " + local.s3AccessKey()
                + "\naws_secret_access_key = " + local.s3SecretKey() + "\n");
        System.setProperty("aws.sharedCredentialsFile", file.toString());
        System.setProperty("aws.disableEc2Metadata", "true");
        try (ObjectStore store = withoutKeys(CredentialOptions.NONE.withProfile("stork-it"))) {
            writeAndRead(store, "profile");
        }
    }

    @Test
    void aProviderClassIsAskedForEachCall() throws IOException {
        int before = StoreKeysProvider.CALLS.get();
        try (ObjectStore store = withoutKeys(CredentialOptions.NONE.withProviders(
                List.of(StoreKeysProvider.class.getName())))) {
            writeAndRead(store, "class");
        }
        // The SDK asks the provider before signing each request (a provider caches itself if it needs to).
        assertThat(StoreKeysProvider.CALLS.get() - before).isEqualTo(3);
    }

    @Test
    void explicitKeysAreUsedWithoutAskingTheEnvironmentOrInstanceMetadata() throws IOException {
        try (CredentialsEndpoint creds = new CredentialsEndpoint("wrong", "wrong", null)) {
            System.setProperty("aws.containerCredentialsFullUri", creds.containerUri().toString());
            System.setProperty("aws.ec2MetadataServiceEndpoint", creds.endpoint().toString());
            try (ObjectStore store = new S3ObjectStore(TestStores.s3Config())) {
                writeAndRead(store, "explicit");
            }
            assertThat(creds.requests()).isEmpty();
        }
    }

    @Test
    void noCredentialsAnywhereFailsInOneLineNamingWhatWasTried() throws IOException {
        System.setProperty("aws.disableEc2Metadata", "true");
        try (ObjectStore store = withoutKeys(CredentialOptions.NONE);
             AccessLog.Window window = local.accessLog().openWindow()) {
            Throwable e = catchThrowable(() -> store.head(ObjectKey.of("it-nocreds", "x")));
            assertThat(e).isInstanceOf(AuthenticationException.class);
            assertThat(e.getMessage()).contains("no S3 credentials: tried the access key and secret (unset), then the "
                    + "AWS SDK's default chain: environment, system properties, web identity token file, profile",
                    "container credentials, instance metadata").doesNotContain("\n");
            assertThat(window.counts().total()).as("nothing reached the store").isZero();
        }
    }

    /**
     * The token is sent (and signed) with the keys, seen at a capturing server; the local store (Swift's
     * s3api with tempauth) has no notion of session tokens: it checks the signature, which covers the
     * token's header, and ignores the token itself, so a call with keys and any token succeeds there.
     * AWS checks it.
     */
    @Test
    void aSessionTokenIsSentSignedAndTheLocalStoreIgnoresIt() throws IOException {
        AtomicReference<String> token = new AtomicReference<>();
        AtomicReference<String> authorization = new AtomicReference<>();
        HttpServer capture = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        capture.createContext("/", exchange -> {
            try (exchange) {
                token.set(exchange.getRequestHeaders().getFirst("x-amz-security-token"));
                authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().add("ETag", "\"0\"");
                exchange.sendResponseHeaders(200, -1);
            }
        });
        capture.start();
        try {
            S3StoreConfig atCapture = S3StoreConfig.of(java.net.URI.create("http://127.0.0.1:"
                    + capture.getAddress().getPort()), "us-east-1", "id", "secret")
                    .withCredentialOptions(CredentialOptions.NONE.withSessionToken(TOKEN));
            try (ObjectStore store = new S3ObjectStore(atCapture)) {
                store.put(ObjectKey.of("bucket", "key"), PutBody.of(new byte[] {1}), PutOptions.defaults());
            }
        } finally {
            capture.stop(0);
        }
        assertThat(token.get()).isEqualTo(TOKEN);
        assertThat(authorization.get()).contains("x-amz-security-token").doesNotContain("secret");

        try (ObjectStore store = new S3ObjectStore(TestStores.s3Config().withCredentialOptions(
                CredentialOptions.NONE.withSessionToken(TOKEN)))) {
            writeAndRead(store, "token");
        }
    }

    /** Environment variables, which only a new JVM can have: keys, the container URI, a profile. */
    @Test
    void environmentVariablesInAChildJvm() throws Exception {
        String bucket = TestStores.uniqueBucket("env");
        try (ObjectStore store = TestStores.open(io.stork.store.StoreApi.S3)) {
            store.createBucket(bucket);
        }
        Path profile = Files.writeString(dir.resolve("env-credentials"), "[from-env]\naws_access_key_id = "
                + local.s3AccessKey() + "\naws_secret_access_key = " + local.s3SecretKey() + "\n");
        try (CredentialsEndpoint creds = new CredentialsEndpoint(local.s3AccessKey(), local.s3SecretKey(), TOKEN)) {
            child(bucket, "keys", Map.of("AWS_ACCESS_KEY_ID", local.s3AccessKey(),
                    "AWS_SECRET_ACCESS_KEY", local.s3SecretKey()));
            child(bucket, "container", Map.of("AWS_CONTAINER_CREDENTIALS_FULL_URI", creds.containerUri().toString()));
            assertThat(creds.hits("GET /container/credentials")).isEqualTo(1);
            child(bucket, "profile", Map.of("AWS_SHARED_CREDENTIALS_FILE", profile.toString(),
                    "AWS_PROFILE", "from-env"));
        }
    }

    /** Runs {@link CredentialsChild} with only these AWS variables, and checks its calls at the store. */
    private void child(String bucket, String name, Map<String, String> env) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                CredentialsChild.class.getName(), local.s3Endpoint().toString(), bucket, "env/" + name));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
        pb.environment().putAll(env);
        Path empty = Files.writeString(dir.resolve("empty-" + name), "");
        pb.environment().putIfAbsent("AWS_SHARED_CREDENTIALS_FILE", empty.toString());
        pb.environment().put("AWS_CONFIG_FILE", empty.toString());
        pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        try (AccessLog.Window window = local.accessLog().openWindow()) {
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(out).as(name).contains("OK");
            assertThat(p.exitValue()).isZero();
            StoreCallCounts counts = window.counts();
            assertThat(counts.byType()).as(name).isEqualTo(Map.of(CallType.PUT, 1L, CallType.GET, 1L));
        }
    }
}
