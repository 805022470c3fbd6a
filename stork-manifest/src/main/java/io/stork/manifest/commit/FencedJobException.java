package io.stork.manifest.commit;

import java.io.IOException;

/** A job whose parts maintenance deleted tried to commit: it fails, and the dataset stays as it was. */
public final class FencedJobException extends IOException {

    private static final long serialVersionUID = 1L;

    public FencedJobException(String message) {
        super(message);
    }
}
