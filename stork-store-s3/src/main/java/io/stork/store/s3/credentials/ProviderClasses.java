package io.stork.store.s3.credentials;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Loads the credential provider classes users name, the way S3A does for
 * {@code fs.s3a.aws.credentials.provider}: a class implementing the SDK's {@code AwsCredentialsProvider},
 * made with a public no-argument constructor or a public static {@code create()}. (S3A's
 * {@code (URI, Configuration)} constructor is not offered: the store layer has no Hadoop configuration.)
 *
 * <p>In the runtime jar the SDK is relocated ({@code io.stork.shaded.software.amazon.awssdk}), so a user's
 * class compiled against the SDK's own names does not implement the interface Stork's client sees. Two
 * things make such lists work anyway: an SDK provider named by its usual name ({@code
 * software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider}) is the one bundled in the jar,
 * and any other class is accepted by its shape, a public {@code resolveCredentials()} whose result has
 * {@code accessKeyId()} and {@code secretAccessKey()} ({@link ForeignCredentialsProvider}). Messages are one
 * line and name the key and the class.
 */
final class ProviderClasses {

    /**
     * The SDK's package root as users write it. Built at run time: the shade plugin rewrites string
     * constants that look like the SDK's package, which would turn this into the relocated root.
     */
    private static final String SDK_ROOT = String.join(".", "software", "amazon", "awssdk") + ".";
    private static final String INTERFACE_SUFFIX = "auth.credentials.AwsCredentialsProvider";
    /** The root of the SDK this class is linked with: {@link #SDK_ROOT}, or the relocated one in the runtime jar. */
    private static final String BUNDLED_ROOT = bundledRoot();

    private ProviderClasses() {
    }

    /** Loads and checks a class: found, a provider (by type or by shape), and constructible. */
    static Class<?> load(String key, String name) {
        Class<?> c = find(key, name);
        if (!AwsCredentialsProvider.class.isAssignableFrom(c) && resolveMethod(c) == null) {
            throw new IllegalArgumentException(key + ": " + name + " is not an AWS credentials provider (it needs the"
                    + " AWS SDK v2 AwsCredentialsProvider's resolveCredentials())");
        }
        if (!Modifier.isPublic(c.getModifiers()) || Modifier.isAbstract(c.getModifiers())) {
            throw new IllegalArgumentException(key + ": " + name + " must be a public, concrete class");
        }
        if (factory(c) == null && constructor(c) == null) {
            throw new IllegalArgumentException(key + ": " + name
                    + " has neither a public no-argument constructor nor a public static create()");
        }
        return c;
    }

    /** A new instance of a class {@link #load} accepted, as a provider of the SDK this class is linked with. */
    /**
     * A provider made from a class name, and whether it is this store's alone: one made by a static
     * {@code create()} may be shared (the SDK's {@code DefaultCredentialsProvider.create()} is a JVM-wide
     * singleton), so its owner must not close it.
     */
    record Made(AwsCredentialsProvider provider, boolean owned) {
    }

    static Made instantiate(String key, String name) {
        Class<?> c = load(key, name);
        Object instance;
        Method create;
        try {
            create = factory(c);
            instance = create != null ? create.invoke(null) : constructor(c).newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(key + ": " + name + " failed to construct: " + describe(e.getCause()), e);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new IllegalArgumentException(key + ": " + name + " failed to construct: " + describe(e), e);
        }
        if (instance instanceof AwsCredentialsProvider provider) {
            return new Made(provider, create == null);
        }
        return new Made(new ForeignCredentialsProvider(instance, resolveMethod(c)), false);
    }

    private static Class<?> find(String key, String name) {
        String bundled = name.startsWith(SDK_ROOT) && !SDK_ROOT.equals(BUNDLED_ROOT)
                ? BUNDLED_ROOT + name.substring(SDK_ROOT.length()) : null;
        for (String candidate : bundled == null ? new String[] {name} : new String[] {bundled, name}) {
            for (ClassLoader loader : loaders()) {
                try {
                    return Class.forName(candidate, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    // next loader, next name
                }
            }
        }
        throw new IllegalArgumentException(key + ": class " + name + " not found");
    }

    /** Spark puts --jars on the thread's context loader; Stork's own loader sees its bundled SDK. */
    private static ClassLoader[] loaders() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader own = ProviderClasses.class.getClassLoader();
        return context == null || context == own ? new ClassLoader[] {own} : new ClassLoader[] {context, own};
    }

    private static Method factory(Class<?> c) {
        try {
            Method m = c.getMethod("create");
            return Modifier.isStatic(m.getModifiers()) && c.isAssignableFrom(m.getReturnType()) ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static java.lang.reflect.Constructor<?> constructor(Class<?> c) {
        try {
            return c.getConstructor();
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** {@code resolveCredentials()} whose result carries an access key id and a secret: the interface's shape. */
    static Method resolveMethod(Class<?> c) {
        try {
            Method m = c.getMethod("resolveCredentials");
            Class<?> result = m.getReturnType();
            result.getMethod("accessKeyId");
            result.getMethod("secretAccessKey");
            return m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    static String describe(Throwable t) {
        String message = t.getMessage() == null ? "" : ": " + t.getMessage().replace('\n', ' ').replace('\r', ' ');
        String line = t.getClass().getSimpleName() + message;
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    private static String bundledRoot() {
        String name = AwsCredentialsProvider.class.getName();
        return name.substring(0, name.length() - INTERFACE_SUFFIX.length());
    }
}
