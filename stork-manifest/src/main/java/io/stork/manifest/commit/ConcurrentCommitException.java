package io.stork.manifest.commit;

import java.io.IOException;

/** Another job committed to the same dataset in a way this job's commit cannot merge with; nothing was lost. */
public class ConcurrentCommitException extends IOException {

    public ConcurrentCommitException(String message) {
        super(message);
    }
}
