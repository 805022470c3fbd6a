package io.stork.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every method of {@link ObjectStore}, called on a {@link ForwardingObjectStore}, reaches the delegate with
 * the same arguments and hands back its answer. A method added to the interface and not forwarded (an
 * interface default answered in place, say) fails here, rather than in a decorator that forgets it.
 */
// Not named *StoreTest: that suffix marks integration tests (Failsafe), and this one needs no store.
class ObjectStoreForwardingTest {

    /** A sample argument of each parameter type ObjectStore's methods take: a new type needs one here. */
    private static final Map<Class<?>, Object> SAMPLES = Map.of(
            ObjectKey.class, ObjectKey.of("b", "k"),
            PutBody.class, PutBody.of(new byte[] {1, 2, 3}),
            PutOptions.class, PutOptions.defaults(),
            ByteRange.class, ByteRange.of(5, 10),
            ReadCondition.class, ReadCondition.ifMatch("etag-1"),
            ListRequest.class, ListRequest.of("b", "p/"),
            String.class, "b",
            Collection.class, List.of("k1", "k2"));

    private record Call(String method, List<Object> args) {
    }

    @Test
    void everyMethodOfObjectStoreIsForwardedWithItsArgumentsAndItsAnswer() throws Exception {
        List<Call> calls = new ArrayList<>();
        ObjectStore delegate = (ObjectStore) Proxy.newProxyInstance(ObjectStore.class.getClassLoader(),
                new Class<?>[] {ObjectStore.class}, (proxy, method, args) -> {
                    calls.add(new Call(method.getName(), args == null ? List.of() : Arrays.asList(args)));
                    return answer(method.getReturnType());
                });
        ObjectStore forwarding = new ForwardingObjectStore(delegate) {
        };

        List<Method> methods = Arrays.stream(ObjectStore.class.getMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers())).toList();
        assertThat(methods).as("ObjectStore's methods, close() included").hasSizeGreaterThan(10);
        for (Method method : methods) {
            calls.clear();
            Object[] args = Arrays.stream(method.getParameterTypes()).map(ObjectStoreForwardingTest::sample).toArray();
            Object answer;
            try {
                answer = method.invoke(forwarding, args);
            } catch (InvocationTargetException e) {
                throw new AssertionError(method + " failed", e.getCause());
            }
            // One call of the same name, with these arguments first: an overload with defaults may fill in
            // the rest (get(key, range) is forwarded as get(key, range, NONE), so decorators see every GET).
            assertThat(calls).as("calls the delegate received for %s", method).hasSize(1);
            Call call = calls.get(0);
            assertThat(call.method()).as("the delegate's method for %s", method).isEqualTo(method.getName());
            assertThat(call.args().subList(0, args.length)).as("the arguments of %s", method)
                    .containsExactly(args);
            if (method.getReturnType() == boolean.class) { // boxed anew by reflection: compared by value
                assertThat(answer).as("the answer of %s", method).isEqualTo(Boolean.TRUE);
            } else if (method.getReturnType() != void.class) {
                assertThat(answer).as("the answer of %s", method).isSameAs(answer(method.getReturnType()));
            }
        }
    }

    @Test
    void theTwoArgumentGetGoesThroughTheDecoratorsGet() throws Exception {
        List<ReadCondition> seen = new ArrayList<>();
        ObjectStore store = new ForwardingObjectStore(new io.stork.store.memory.InMemoryObjectStore()) {
            @Override
            public ObjectStream get(ObjectKey key, ByteRange range, ReadCondition condition) throws java.io.IOException {
                seen.add(condition);
                return super.get(key, range, condition);
            }
        };
        store.createBucket("b");
        store.put(ObjectKey.of("b", "k"), PutBody.of(new byte[] {7}), PutOptions.defaults());
        try (ObjectStream in = store.get(ObjectKey.of("b", "k"), ByteRange.all())) {
            assertThat(in.readAllBytes()).containsExactly(7);
        }
        assertThat(seen).containsExactly(ReadCondition.NONE);
    }

    private static Object sample(Class<?> type) {
        Object sample = SAMPLES.get(type);
        if (sample == null) {
            throw new AssertionError("no sample argument of " + type.getName() + ": add one to SAMPLES");
        }
        return sample;
    }

    /** One fixed answer per return type, so that the test can tell the delegate's answer was handed back. */
    private static final Map<Class<?>, Object> ANSWERS = new java.util.concurrent.ConcurrentHashMap<>();

    private static Object answer(Class<?> type) {
        if (type == void.class) {
            return null;
        }
        if (type == boolean.class) {
            return Boolean.TRUE; // the defaults answer false: true shows the delegate's answer came back
        }
        return ANSWERS.computeIfAbsent(type, ObjectStoreForwardingTest::instance);
    }

    private static Object instance(Class<?> type) {
        if (type.isInterface()) {
            return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
                throw new UnsupportedOperationException("a sample answer");
            });
        }
        if (type == StoreDescription.class) {
            return new StoreDescription(StoreApi.MEMORY, "sample");
        }
        if (type == ObjectInfo.class) {
            return new ObjectInfo(ObjectKey.of("b", "k"), 3, "etag-1", java.time.Instant.EPOCH, Map.of());
        }
        if (type == ObjectStream.class) {
            ObjectInfo info = (ObjectInfo) answer(ObjectInfo.class);
            return new ObjectStream(java.io.InputStream.nullInputStream(), info, 0, 0);
        }
        if (type == DeleteResult.class) {
            return new DeleteResult(2, Map.of());
        }
        if (type == UploadStream.class) {
            return new UploadStream() {
                @Override
                public void abort() {
                }

                @Override
                public ObjectInfo result() {
                    return null;
                }

                @Override
                public long peakBufferedBytes() {
                    return 0;
                }
            };
        }
        if (type == StoreStatistics.class) {
            return StoreStatistics.forClient();
        }
        throw new AssertionError("no sample answer of " + type.getName() + ": add one to instance()");
    }
}
