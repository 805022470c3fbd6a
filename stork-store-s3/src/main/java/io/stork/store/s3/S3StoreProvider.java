package io.stork.store.s3;

import io.stork.store.ObjectStore;
import io.stork.store.RetryPolicy;
import io.stork.store.StoreApi;
import io.stork.store.StoreConfig;
import io.stork.store.StoreProvider;
import io.stork.store.StoreSettings;
import io.stork.store.s3.credentials.CredentialOptions;
import io.stork.store.s3.credentials.S3Credentials;
import io.stork.store.TlsTrust;
import java.io.IOException;
import java.time.Duration;

/**
 * The S3 client, for {@link io.stork.store.StoreFactory} (service-loaded, {@code fs.stork.api=s3}). Its keys
 * are listed in docs/configuration.md; the file system reads none of them.
 */
public final class S3StoreProvider implements StoreProvider {

    static final String ENDPOINT = "endpoint";
    static final String REGION = "region";
    static final String PATH_STYLE_ACCESS = "path.style.access";
    static final String ACCESS_KEY = "access.key";
    /** The secret access key. Named so that Spark's and Hadoop's default redaction both hide it ({@code secret$}). */
    static final String ACCESS_SECRET = "access.secret";
    /** The old name of {@link #ACCESS_SECRET}: still read, with a warning, since Hadoop's redaction misses it. */
    static final String SECRET_KEY_DEPRECATED = "secret.key";
    static final String MULTIPART_SIZE = "multipart.size";
    static final String MULTIPART_IN_FLIGHT = "multipart.parts.in.flight";
    static final String CONNECTION_MAXIMUM = "connection.maximum";
    static final String CONNECTION_TIMEOUT = "connection.timeout";
    static final String SOCKET_TIMEOUT = "socket.timeout";
    static final String CONDITIONAL_WRITES = "s3.conditional.writes";
    // Credentials besides the explicit keys (io.stork.store.s3.credentials.S3Credentials: the order they are tried).
    /** The session token of temporary keys: named so Hadoop's ({@code secret$}) and Spark's redaction hide it. */
    static final String SESSION_SECRET = "session.secret";
    /** S3A's name for it, which Hadoop's redaction misses under {@code fs.stork.}: refused, naming the right key. */
    static final String SESSION_TOKEN_REFUSED = "session.token";
    static final String CREDENTIALS_PROVIDER = "s3.credentials.provider";
    static final String CREDENTIALS_PROFILE = "s3.credentials.profile";

    @Override
    public StoreApi api() {
        return StoreApi.S3;
    }

    @Override
    public StoreConfig config(StoreSettings s) throws IOException {
        String accessKey = s.secret(ACCESS_KEY);
        String secretKey = s.secret(ACCESS_SECRET, SECRET_KEY_DEPRECATED);
        if ((accessKey == null) != (secretKey == null)) {
            throw s.invalid("set both " + s.name(ACCESS_KEY) + " and " + s.name(ACCESS_SECRET)
                    + ", or neither (to use the environment)");
        }
        CredentialOptions credentials = credentials(s, accessKey != null);
        try {
            return new S3StoreConfig(s.uri(ENDPOINT), s.get(REGION, "us-east-1"), s.getBoolean(PATH_STYLE_ACCESS, true),
                    accessKey, secretKey,
                    s.getBytes(MULTIPART_SIZE, S3StoreConfig.DEFAULT_PART_SIZE),
                    s.getInt(MULTIPART_IN_FLIGHT, S3StoreConfig.DEFAULT_PARTS_IN_FLIGHT),
                    s.getInt(CONNECTION_MAXIMUM, 32),
                    s.getDuration(CONNECTION_TIMEOUT, Duration.ofSeconds(10)),
                    s.getDuration(SOCKET_TIMEOUT, Duration.ofSeconds(60)),
                    s.getBoolean(CONDITIONAL_WRITES, false),
                    credentials,
                    TlsTrust.read(s));
        } catch (IllegalArgumentException e) { // the config's own checks: sizes, counts, the endpoint's form
            throw s.invalid(e.getMessage());
        }
    }

    /** The session token, the provider classes (checked: found, providers, constructible) and the profile. */
    private static CredentialOptions credentials(StoreSettings s, boolean explicitKeys) throws IOException {
        if (s.get(SESSION_TOKEN_REFUSED, null) != null) {
            throw s.invalid(s.name(SESSION_TOKEN_REFUSED) + " is not read: set the session token as "
                    + s.name(SESSION_SECRET) + " (a name Hadoop's and Spark's redaction hide)");
        }
        String token = s.secret(SESSION_SECRET);
        if (token != null && !explicitKeys) {
            throw s.invalid(s.name(SESSION_SECRET) + " needs " + s.name(ACCESS_KEY) + " and " + s.name(ACCESS_SECRET)
                    + " (the keys it was issued with)");
        }
        CredentialOptions options = new CredentialOptions(token,
                CredentialOptions.parseProviders(s.get(CREDENTIALS_PROVIDER, null)), s.name(CREDENTIALS_PROVIDER),
                s.get(CREDENTIALS_PROFILE, null));
        try {
            S3Credentials.check(options);
        } catch (IllegalArgumentException e) { // one line, naming the key and the class
            throw s.invalid(e.getMessage());
        }
        return options;
    }

    @Override
    public ObjectStore open(StoreConfig config, RetryPolicy retry) {
        return new S3ObjectStore((S3StoreConfig) config, retry);
    }
}
