package io.stork.commit;

import java.io.IOException;

/**
 * Spark's commit protocol is Scala: its methods throw IOException without declaring it, and Spark's
 * callers handle the real type (e.g. FileAlreadyExistsException). Java overrides cannot declare it, so
 * the exception is rethrown unchanged rather than wrapped in an UncheckedIOException that would hide it.
 */
final class Rethrow {

    private Rethrow() {
    }

    static RuntimeException unchecked(IOException e) {
        throw Rethrow.<RuntimeException>sneaky(e);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable e) throws T {
        throw (T) e;
    }
}
