package io.stork.store.s3.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

class S3CredentialsTest {

    private static final String KEY = CredentialOptions.DEFAULT_PROVIDERS_KEY;

    private static CredentialOptions providers(String... names) {
        return CredentialOptions.NONE.withProviders(List.of(names));
    }

    @Test
    void explicitKeysAreUsedAloneWithTheirSessionToken() {
        var plain = S3Credentials.provider("id", "secret", providers(TestProviders.Counting.class.getName()));
        // Alone: nothing else is consulted (no provider class, no environment, no instance metadata).
        assertThat(plain).isInstanceOf(StaticCredentialsProvider.class);
        assertThat(plain.resolveCredentials()).isNotInstanceOf(AwsSessionCredentials.class);

        AwsCredentials session = S3Credentials.provider("id", "secret",
                CredentialOptions.NONE.withSessionToken("tok")).resolveCredentials();
        assertThat(session).isInstanceOf(AwsSessionCredentials.class);
        assertThat(((AwsSessionCredentials) session).sessionToken()).isEqualTo("tok");
        assertThat(session.accessKeyId()).isEqualTo("id");
    }

    @Test
    void providerClassesAreTriedInOrderAndTheFirstThatAnswersIsKept() {
        TestProviders.Counting.CALLS.set(0);
        var chain = S3Credentials.provider(null, null, providers(TestProviders.Empty.class.getName(),
                " " + TestProviders.Counting.class.getName() + " ", TestProviders.ByFactory.class.getName()));
        assertThat(chain.resolveCredentials().accessKeyId()).isEqualTo("counting-id");
        assertThat(chain.resolveCredentials().accessKeyId()).isEqualTo("counting-id");
        assertThat(TestProviders.Counting.CALLS.get()).isEqualTo(2);

        assertThat(S3Credentials.provider(null, null, providers(TestProviders.ByFactory.class.getName()))
                .resolveCredentials().accessKeyId()).isEqualTo("factory-id");
    }

    @Test
    void aClassOfTheInterfacesShapeIsAdaptedWithItsSessionToken() {
        AwsCredentials c = S3Credentials.provider(null, null, providers(TestProviders.Shaped.class.getName()))
                .resolveCredentials();
        assertThat(c.accessKeyId()).isEqualTo("shaped-id");
        assertThat(c.secretAccessKey()).isEqualTo("shaped-secret");
        assertThat(((AwsSessionCredentials) c).sessionToken()).isEqualTo("shaped-token");
    }

    @Test
    void theSdksOwnProvidersByTheirUsualNames() {
        S3Credentials.check(providers("software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider",
                "software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider",
                "software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider"));
    }

    @Test
    void wrongClassesFailInOneLineNamingTheKeyAndTheClass() {
        assertThat(message(() -> S3Credentials.check(providers("com.example.Missing"))))
                .isEqualTo(KEY + ": class com.example.Missing not found");
        assertThat(message(() -> S3Credentials.check(providers("java.lang.StringBuilder"))))
                .startsWith(KEY + ": java.lang.StringBuilder is not an AWS credentials provider");
        assertThat(message(() -> S3Credentials.check(providers(TestProviders.NoConstructor.class.getName()))))
                .isEqualTo(KEY + ": " + TestProviders.NoConstructor.class.getName()
                        + " has neither a public no-argument constructor nor a public static create()");
        String failing = TestProviders.Failing.class.getName();
        S3Credentials.check(providers(failing)); // loadable; it fails when the client is made
        assertThat(message(() -> S3Credentials.provider(null, null, providers(failing))))
                .isEqualTo(KEY + ": " + failing + " failed to construct: IllegalStateException: no role configured");
    }

    @Test
    void nothingAnsweringFailsInOneLineNamingWhatWasTried(@TempDir Path dir) throws Exception {
        var chain = S3Credentials.provider(null, null, providers(TestProviders.Empty.class.getName()));
        String m = message(chain::resolveCredentials);
        assertThat(m).startsWith(S3Credentials.MISSING + ": tried " + KEY + " (" + TestProviders.Empty.class.getName() + "): ")
                .doesNotContain("\n");

        // The default chain, with nothing anywhere: no environment keys in a test JVM, an empty profile file,
        // instance metadata off (no probing of 169.254.169.254 from a build machine).
        Path empty = Files.writeString(dir.resolve("credentials"), "");
        String defaultChain = withProperties(() -> message(() -> S3Credentials.provider(null, null,
                        CredentialOptions.NONE.withProfile("nightly")).resolveCredentials()),
                "aws.sharedCredentialsFile", empty.toString(), "aws.configFile", empty.toString(),
                "aws.disableEc2Metadata", "true");
        assertThat(defaultChain).startsWith(S3Credentials.MISSING + ": tried the access key and secret (unset), then "
                        + "the AWS SDK's default chain: environment, system properties, web identity token file, "
                        + "profile 'nightly', container credentials, instance metadata: ")
                .doesNotContain("\n");
    }

    @Test
    void aNamedProfileFromTheProfileFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("credentials"), "[default]\naws_access_key_id = wrong\n"
                + "aws_secret_access_key = wrong\n[nightly]\naws_access_key_id = nightly-id\n"
                + "aws_secret_access_key = nightly-secret\n");
        AwsCredentials c = withProperties(() -> S3Credentials.provider(null, null,
                        CredentialOptions.NONE.withProfile("nightly")).resolveCredentials(),
                "aws.sharedCredentialsFile", file.toString(), "aws.disableEc2Metadata", "true");
        assertThat(c.accessKeyId()).isEqualTo("nightly-id");
        assertThat(c.secretAccessKey()).isEqualTo("nightly-secret");
    }

    @Test
    void theOptionsNeverShowTheToken() {
        assertThat(CredentialOptions.NONE.withSessionToken("s3cr3t-token").toString()).doesNotContain("s3cr3t");
        assertThat(CredentialOptions.parseProviders(" a.B, ,c.D ,")).containsExactly("a.B", "c.D");
    }

    static String message(Runnable action) {
        Throwable t = catchThrowable(action::run);
        assertThat(t).as("expected a failure").isNotNull();
        return t.getMessage();
    }

    interface Action<T> {
        T run() throws Exception;
    }

    /** Runs with system properties set, restoring them after (the SDK reads them on each lookup). */
    static <T> T withProperties(Action<T> action, String... keysAndValues) throws Exception {
        String[] old = new String[keysAndValues.length / 2];
        for (int i = 0; i < keysAndValues.length; i += 2) {
            old[i / 2] = System.getProperty(keysAndValues[i]);
            System.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        try {
            return action.run();
        } finally {
            for (int i = 0; i < keysAndValues.length; i += 2) {
                if (old[i / 2] == null) {
                    System.clearProperty(keysAndValues[i]);
                } else {
                    System.setProperty(keysAndValues[i], old[i / 2]);
                }
            }
        }
    }
}
