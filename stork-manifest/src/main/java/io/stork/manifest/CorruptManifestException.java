package io.stork.manifest;

import java.io.IOException;

/** A manifest that cannot be trusted: not JSON, a field missing or wrong, a newer format version. */
public class CorruptManifestException extends IOException {

    public CorruptManifestException(String source, String problem) {
        super("corrupt Stork manifest " + source + ": " + problem);
    }

    public CorruptManifestException(String source, String problem, Throwable cause) {
        super("corrupt Stork manifest " + source + ": " + problem, cause);
    }
}
