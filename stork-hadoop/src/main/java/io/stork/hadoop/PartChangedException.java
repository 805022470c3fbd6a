package io.stork.hadoop;

import java.io.IOException;

/**
 * An object is not the version the reader expects: a part replaced after the generation naming it was
 * committed, or an object replaced while it was read. Never retried: other bytes than the committed ones
 * would be silently wrong data.
 */
public class PartChangedException extends IOException {

    public PartChangedException(String message, Throwable cause) {
        super(message, cause);
    }
}
