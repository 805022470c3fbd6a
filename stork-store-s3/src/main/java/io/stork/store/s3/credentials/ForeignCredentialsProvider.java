package io.stork.store.s3.credentials;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * A user's provider written against another copy of the SDK than the one Stork's client is linked with
 * (the runtime jar relocates its SDK): called by its {@code resolveCredentials()}, its answer copied into
 * this SDK's credentials. The user's provider keeps its own caching and refresh; this adds none.
 */
final class ForeignCredentialsProvider implements AwsCredentialsProvider {

    private final Object target;
    private final Method resolve;

    ForeignCredentialsProvider(Object target, Method resolve) {
        this.target = target;
        this.resolve = resolve;
    }

    @Override
    public AwsCredentials resolveCredentials() {
        try {
            Object credentials = resolve.invoke(target);
            String id = (String) call(credentials, "accessKeyId");
            String secret = (String) call(credentials, "secretAccessKey");
            String token = hasMethod(credentials, "sessionToken") ? (String) call(credentials, "sessionToken") : null;
            return token == null ? AwsBasicCredentials.create(id, secret) : AwsSessionCredentials.create(id, secret, token);
        } catch (InvocationTargetException e) {
            throw SdkClientException.create(target.getClass().getName() + ": " + ProviderClasses.describe(e.getCause()),
                    e.getCause());
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw SdkClientException.create(target.getClass().getName() + ": " + ProviderClasses.describe(e), e);
        }
    }

    private static Object call(Object on, String method) throws ReflectiveOperationException {
        Method m = on.getClass().getMethod(method);
        m.setAccessible(true); // the SDK's credential classes may be package-private implementations
        return m.invoke(on);
    }

    private static boolean hasMethod(Object on, String method) {
        try {
            on.getClass().getMethod(method);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return target.getClass().getName();
    }
}
