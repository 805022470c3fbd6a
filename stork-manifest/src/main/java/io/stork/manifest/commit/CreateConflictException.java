package io.stork.manifest.commit;

import java.io.IOException;

/** A create-if-absent found the object already there (the storage's own "exists" answer, translated). */
public class CreateConflictException extends IOException {

    public CreateConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
